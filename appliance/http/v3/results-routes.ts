import { Hono } from 'hono';
import { z } from 'zod';
import { ApiError } from '../../../core/errors.js';
import { type AuthEnv, requireAppKey } from '../../auth/middleware.js';
import type { AppContext } from '../../context.js';
import { DETECTIONS, type OcrHistory, USAGE_GROUPS, USAGE_TIMESPANS } from '../../results/ocr-history.js';
import { dateBound, parseQuery, queryBool as bool, resultsQuery } from './result-query.js';

const ocrResultsQuery = resultsQuery.extend({
  request_id: z.string().optional(),
  pdf_id: z.string().optional(),
  tags: z.string().optional(),
  include_null_results: bool.optional(),
  text: z.string().optional(),
  text_display: z.string().optional(),
  latex_styled: z.string().optional(),
  is_printed: bool.optional(),
  is_handwritten: bool.optional(),
  contains_table: bool.optional(),
  contains_chemistry: bool.optional(),
  contains_diagram: bool.optional(),
  contains_triangle: bool.optional(),
  contains_algorithm: bool.optional(),
});

const usageQuery = z.object({
  from_date: z.string().optional(),
  to_date: z.string().optional(),
  group_by: z.enum(USAGE_GROUPS).default('usage_type'),
  timespan: z.enum(USAGE_TIMESPANS).default('day'),
});

/**
 * The image history of 4.6, scoped to the caller's group (every app of the account):
 * - GET /v3/ocr-results (app_key only): stored results newest first, 2.3 records. Filters of 4.6;
 *   `tags` may repeat and a record must carry every tag given; text, text_display and
 *   latex_styled are substring matches; request_id picks one request. The pages of completed
 *   /v3/pdf documents are listed too (endpoint /v3/pdf, image_id <pdf_id>-<page>;
 *   appliance/results/pdf-pages.ts), and pdf_id (the official client's filter) picks one
 *   document's. Results that are errors (no recognised content) are left out unless
 *   include_null_results is true. Booleans read true/false in any case. An unknown filter is 400.
 *   Requests whose metadata set improve_* false are absent.
 * - GET /v3/ocr-usage (app_id + app_key): the spec does not show its shape. Folio answers what
 *   the hosted service's users expect: query from_date (included), to_date (excluded),
 *   group_by (usage_type | request_args_hash | app_id, default usage_type) and timespan
 *   (hour | day | week | month, default day); response {ocr_usage: [{from_date, app_id,
 *   group_id, usage_type, request_args_hash, count}]}, one record per timespan and group value,
 *   oldest first. Fields other than the grouped one are ''. Counts include failed requests and
 *   requests with improve false (usage metadata is always kept).
 */
export function v3ResultsRoutes(ctx: AppContext, history: OcrHistory): Hono {
  const app = new Hono<AuthEnv>();

  app.get('/v3/ocr-results', requireAppKey(ctx, { appIdRequired: false }), (c) => {
    const q = parseQuery(ocrResultsQuery, c.req.query());
    const detections = Object.fromEntries(DETECTIONS.filter((k) => q[k] !== undefined).map((k) => [k, q[k]]));
    const records = history.results(
      c.get('auth').groupId,
      {
        fromMs: dateBound(q.from_date, 'from_date', false),
        toMs: dateBound(q.to_date, 'to_date', true),
        appId: q.app_id,
        requestId: q.request_id,
        pdfId: q.pdf_id,
        includeNull: q.include_null_results ?? false,
        text: q.text,
        textDisplay: q.text_display,
        latexStyled: q.latex_styled,
        tags: c.req.queries('tags') ?? [],
        detections,
      },
      (q.page - 1) * q.per_page,
      q.per_page,
    );
    return c.json({ ocr_results: records });
  });

  app.get('/v3/ocr-usage', requireAppKey(ctx, { appIdRequired: true }), (c) => {
    const q = parseQuery(usageQuery, c.req.query());
    const from = dateBound(q.from_date, 'from_date', false);
    const to = dateBound(q.to_date, 'to_date', true);
    if (from > to) throw new ApiError('bad_request', 'from_date is after to_date', { field: 'from_date' });
    return c.json({ ocr_usage: history.usage(c.get('auth').groupId, q.group_by, q.timespan, from, to) });
  });

  return app as unknown as Hono;
}
