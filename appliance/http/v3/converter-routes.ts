import { Hono } from 'hono';
import { z } from 'zod';
import { ApiError, envelope } from '../../../core/errors.js';
import { CONVERSION_FORMATS, conversionFormatsSchema } from '../../../core/options/pdf-options.js';
import { ConversionStore } from '../../../core/v3/conversion-store.js';
import { deleteFolder } from '../../../core/v3/folders.js';
import { conversionFolder, newV3Id } from '../../../core/v3/keys.js';
import { PdfStore } from '../../../core/v3/pdf-store.js';
import { type AuthEnv, requireAppKey } from '../../auth/middleware.js';
import type { AppContext } from '../../context.js';
import { readJson } from '../read-json.js';
import { CONVERSION_BASE_FORMATS, resolveDownload, sendObject } from './downloads.js';
import { dateBound, historyAppId, parseQuery, resultsQuery } from './result-query.js';
import { checkOwner, conversionView, isV3Id, splitName } from './views.js';

/** Spec 8: the MMD JSON body of v3/converter. */
export const MAX_CONVERTER_BODY_BYTES = 10 * 1024 * 1024;

const converterBody = z
  .object({
    mmd: z.string(),
    formats: conversionFormatsSchema,
    conversion_options: z.record(z.enum(CONVERSION_FORMATS), z.record(z.unknown())).default({}),
    metadata: z.record(z.unknown()).default({}),
  })
  .strict();

/** For an id that has no conversion (spec 4.8: seen with HTTP 200). */
const unknownId = (id: string) => ({ ...envelope('cnv_unknown_id', `No conversion ${id}`, { conversion_id: id }) });

/**
 * /v3/converter (spec 4.8, app_id + app_key). Formats are made by a document worker ('v3-convert'
 * task). Conversion options are recorded but this build's converter takes none.
 * - POST   /v3/converter              {mmd, formats, conversion_options?, metadata?} → {conversion_id}
 * - GET    /v3/converter/{id}         2.6 status of a conversion, or of a document's requested formats
 * - GET    /v3/converter/{id}.{ext}   mmd, md and the requested formats once completed
 * - DELETE /v3/converter/{id}         removes the outputs; answers the status object as it was
 * - GET    /v3/converter-results  (app_key only) the conversion history as the official client reads
 *   it, paged like /v3/pdf-results: {documents: [{id, status, created_at, modified_at, request_args,
 *   conversion_status}]}, newest first; from_date, to_date, app_id (same group), page, per_page.
 * Unknown ids answer HTTP 200 with error cnv_unknown_id (GET and DELETE), downloads 404 not_found.
 */
export function v3ConverterRoutes(ctx: AppContext): Hono {
  const app = new Hono<AuthEnv>();
  const prefix = ctx.config.FOLIO_QUEUE_PREFIX;
  const conversions = new ConversionStore(ctx.redis, prefix, ctx.now);
  const pdfs = new PdfStore(ctx.redis, prefix, ctx.now);
  const withKey = requireAppKey(ctx, { appIdRequired: true });

  app.post('/v3/converter', withKey, async (c) => {
    const parsed = converterBody.safeParse(await readJson(c.req.raw, MAX_CONVERTER_BODY_BYTES));
    if (!parsed.success) {
      const message = parsed.error.issues
        .map((i) => (i.code === 'unrecognized_keys' ? `unknown field ${i.keys.join(', ')}` : `${i.path.join('.') || 'body'}: ${i.message}`))
        .join('; ');
      throw new ApiError('bad_request', message);
    }
    const { mmd, formats, conversion_options, metadata } = parsed.data;
    const auth = c.get('auth');
    const id = newV3Id(ctx.now());
    await ctx.storage.write(`${conversionFolder(id)}${id}.mmd`, mmd, 'text/markdown; charset=utf-8');
    const rec = await conversions.create({ conversion_id: id, app_id: auth.appId, group_id: auth.groupId, formats, conversion_options, metadata });
    if (Object.keys(rec.conversion_status).length) await ctx.queues.enqueue('v3-convert', { conversionId: id }, { jobId: `v3cnv-${id}` });
    return c.json({ conversion_id: id });
  });

  app.get('/v3/converter/:name', withKey, async (c) => {
    const { id, ext } = splitName(c.req.param('name'));
    const auth = c.get('auth');
    const conversion = isV3Id(id) ? await conversions.get(id) : null;
    if (ext !== null) {
      const rec = checkOwner(conversion, auth, `conversion ${id}`);
      const d = resolveDownload(ext, {
        base: CONVERSION_BASE_FORMATS,
        baseReady: true,
        formats: rec.conversion_status,
        keyOf: (e) => `${conversionFolder(id)}${id}.${e}`,
      });
      if (d.kind === 'unsupported') throw new ApiError('unsupported_format', d.message);
      if (d.kind === 'not_ready')
        return c.json({ ...conversionView(rec), error: 'format_not_ready', error_info: { id: 'format_not_ready', message: d.message } }, 404);
      return sendObject(c, ctx.storage, d.key, ext, id);
    }
    if (conversion) return c.json(conversionView(checkOwner(conversion, auth, `conversion ${id}`)));
    const pdf = isV3Id(id) ? await pdfs.get(id) : null;
    if (pdf) return c.json(conversionView(checkOwner(pdf, auth, `document ${id}`)));
    return c.json(unknownId(id));
  });

  app.get('/v3/converter-results', requireAppKey(ctx, { appIdRequired: false }), async (c) => {
    const q = parseQuery(resultsQuery, c.req.query());
    const appId = historyAppId(ctx.db, c.get('auth'), q.app_id);
    if (appId === null) return c.json({ documents: [] });
    const window = { fromMs: dateBound(q.from_date, 'from_date', false), toMs: dateBound(q.to_date, 'to_date', true) };
    const records = await conversions.list(appId, { ...window, offset: (q.page - 1) * q.per_page, count: q.per_page });
    return c.json({
      documents: records.map((r) => ({
        id: r.conversion_id,
        ...conversionView(r),
        created_at: r.created_at,
        modified_at: r.modified_at,
        request_args: { formats: r.formats, conversion_options: r.conversion_options, metadata: r.metadata },
      })),
    });
  });

  app.delete('/v3/converter/:name', withKey, async (c) => {
    const id = c.req.param('name');
    const existing = isV3Id(id) ? await conversions.get(id) : null;
    if (!existing) return c.json(unknownId(id));
    checkOwner(existing, c.get('auth'), `conversion ${id}`);
    const rec = await conversions.delete(id);
    await deleteFolder(ctx.storage, conversionFolder(id));
    return c.json(conversionView(rec ?? existing));
  });

  return app as unknown as Hono;
}
