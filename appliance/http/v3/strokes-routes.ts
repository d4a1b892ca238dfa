import { Hono } from 'hono';
import { ApiError } from '../../../core/errors.js';
import { OCR_VERSION } from '../../../core/versions.js';
import { newV3Id } from '../../../core/v3/keys.js';
import { requireLicense } from '../../../license/gate.js';
import type { Stroke, StrokesRead } from '../../../core/v3/strokes.js';
import { type AuthEnv, requireKeyOrToken } from '../../auth/middleware.js';
import type { AppContext } from '../../context.js';
import { OcrHistory } from '../../results/ocr-history.js';
import { imageFailure, imageStage, takeImageSlot } from './image-accounting.js';
import { readJson } from '../read-json.js';
import { type DataOptions, mmdData, mmdToHtml } from './mmd-render.js';
import { parseTextOptions, type TextOptions } from './text-options.js';
import { round } from '../../../page/render/line-data.js';
import { checkConfidence } from './text-result.js';
import { inlineMath } from '../../../page/render/mmd.js';
import { type RecognizeStrokes, StrokesPool } from './strokes-inference.js';
import { StrokesSessions } from './strokes-sessions.js';

/** Spec 8: JSON body limit of v3/strokes. */
export const MAX_STROKES_JSON_BYTES = 512 * 1024;

export interface V3StrokesRouteOptions {
  /** Pen strokes → LaTeX; by default a 'strokes' task on the inference pool (strokes-inference.ts). */
  recognize?: RecognizeStrokes;
  /** Called with the pool the routes made, so its owner can close it (tests). */
  onPool?: (pool: StrokesPool) => void;
}

/**
 * POST /v3/strokes (spec 4.3, answer 2.1): JSON {strokes: {strokes: {x: [[…]…], y: [[…]…]}},
 * strokes_session_id?, metadata?, …v3/text options}, app_id + app_key or an app token with the
 * strokes_session_id it was issued with (part 5), refused while the licence is blocked.
 *
 * - Recognition runs on an inference worker (a 'strokes' task), behind the same in-flight limit
 *   as /v3/text (ctx.textRequests, FOLIO_TEXT_REQUESTS_MAX → 429 http_max_requests); no answer
 *   within STROKES_WAIT_MS is sys_exception.
 * - A malformed strokes object is 400 bad_request with `field`; a body over 512 KB is
 *   sys_request_too_large; math_confidence (confidence_threshold) and internal errors answer
 *   HTTP 200 with error/error_info, as /v3/text does.
 * - text is the LaTeX in the inline delimiters; latex_styled is sent unless formats leaves it
 *   out; several written lines come back as one array environment.
 * - History and usage as /v3/text: usage type 'strokes', event id usage:strokes:<request_id>.
 * - Under a strokes session the strokes join those sent before and the answer reads them all
 *   (strokes-sessions.ts).
 */
export function v3StrokesRoutes(ctx: AppContext, opts: V3StrokesRouteOptions = {}): Hono {
  const app = new Hono<AuthEnv>();
  const recognize = opts.recognize ?? defaultPool(ctx, opts.onPool);
  const history = new OcrHistory(ctx.db);
  const sessions = new StrokesSessions(ctx);

  app.post('/v3/strokes', requireKeyOrToken(ctx, { strokes: true }), requireLicense(ctx), async (c) => {
    const release = takeImageSlot(ctx);
    const requestId = newV3Id(ctx.now());
    const started = ctx.now();
    try {
      const raw = await readJson(c.req.raw, MAX_STROKES_JSON_BYTES);
      const options = parseTextOptions(raw);
      const sent = parseStrokes((raw as Record<string, unknown>).strokes);
      const session = sessions.sessionOf(c.get('auth'), raw as Record<string, unknown>);
      const strokes = session ? await sessions.append(session, sent) : sent;
      // The strokes are the input itself, like an image: only the options are kept as arguments.
      const { strokes: _strokes, strokes_session_id: _session, ...args } = options;
      const { body, status } = await imageStage(
        ctx,
        history,
        { usage: 'strokes', requestId, auth: c.get('auth'), endpoint: '/v3/strokes', usageType: 'strokes', args, startedMs: started },
        async () => strokesResult(requestId, await recognize(requestId, strokes), strokes, options),
      );
      return c.json(body, status);
    } catch (err) {
      // Parameter errors and unread bodies are not recognition requests: neither counted nor remembered.
      const { body, status } = imageFailure(ctx, requestId, err, 'strokes');
      return c.json(body, status);
    } finally {
      release();
    }
  });

  return app as unknown as Hono;
}

function defaultPool(ctx: AppContext, onPool?: (pool: StrokesPool) => void): RecognizeStrokes {
  const pool = new StrokesPool(ctx);
  onPool?.(pool);
  return pool.recognize;
}

/** The 4.3 strokes object → pen strokes; anything else is bad_request naming the field. */
export function parseStrokes(value: unknown): Stroke[] {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(value)) throw new ApiError('bad_request', 'strokes is required: an object {strokes: {x: [[...]], y: [[...]]}}', { field: 'strokes' });
  const inner = value.strokes;
  if (!isObject(inner)) throw new ApiError('bad_request', 'strokes.strokes must be an object with x and y', { field: 'strokes.strokes' });
  const axis = (name: 'x' | 'y'): number[][] => {
    const lists = inner[name];
    const field = `strokes.strokes.${name}`;
    if (!Array.isArray(lists) || lists.length === 0)
      throw new ApiError('bad_request', `${field} must be a non-empty array with one array of numbers per stroke`, { field });
    lists.forEach((list, i) => {
      if (!Array.isArray(list) || list.length === 0 || !list.every((n) => typeof n === 'number' && Number.isFinite(n))) {
        throw new ApiError('bad_request', `${field}[${i}] must be a non-empty array of numbers`, { field });
      }
    });
    return lists as number[][];
  };
  const x = axis('x');
  const y = axis('y');
  const mismatch = x.length !== y.length ? -1 : x.findIndex((list, i) => list.length !== y[i].length);
  if (x.length !== y.length || mismatch >= 0) {
    const what =
      mismatch < 0 ? `x has ${x.length} strokes and y ${y.length}` : `stroke ${mismatch} has ${x[mismatch].length} x and ${y[mismatch].length} y coordinates`;
    throw new ApiError('bad_request', `strokes.strokes.x and y must pair up: ${what}`, { field: 'strokes.strokes' });
  }
  return x.map((xs, i) => ({ x: xs, y: y[i] }));
}

/**
 * The 2.1 answer for recognised strokes. confidence is the worker's calibrated chance that the read
 * is exact, confidence_rate the same chance on the scale the default threshold 0.75 is read on
 * (worker/inference/strokes-confidence.ts); image_width/height the extent of
 * the writing in its own units. Throws math_confidence as checkConfidence says.
 */
export async function strokesResult(requestId: string, math: StrokesRead, strokes: Stroke[], opts: TextOptions): Promise<Record<string, unknown>> {
  const confidence = round(math.confidence);
  const confidenceRate = round(math.confidenceRate);
  checkConfidence(opts, { confidence, confidence_rate: confidenceRate }, math.boxes.length > 0);
  const f = opts.formats;
  const listed = Array.isArray(f) ? f : f && typeof f === 'object' ? Object.keys(f).filter((k) => (f as Record<string, unknown>)[k]) : [];
  const formats = new Set(listed.length ? listed : ['text', 'latex_styled']);
  const text = math.latex ? inlineMath(math.latex, { math_inline_delimiters: opts.math_inline_delimiters }) : '';
  const out: Record<string, unknown> = { request_id: requestId, version: OCR_VERSION };
  if (formats.has('text')) out.text = text;
  if (formats.has('latex_styled') && math.latex) out.latex_styled = math.latex;
  if (formats.has('html')) out.html = await mmdToHtml(text);
  out.data = await mmdData(text, (opts.data_options ?? {}) as DataOptions);
  const xs = strokes.flatMap((s) => s.x);
  const ys = strokes.flatMap((s) => s.y);
  Object.assign(out, {
    confidence,
    confidence_rate: confidenceRate,
    is_printed: false,
    is_handwritten: true,
    auto_rotate_degrees: 0,
    auto_rotate_confidence: 0,
    image_width: Math.ceil(Math.max(...xs) - Math.min(0, ...xs)),
    image_height: Math.ceil(Math.max(...ys) - Math.min(0, ...ys)),
  });
  return out;
}
