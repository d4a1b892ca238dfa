import { Hono } from 'hono';
import type { Resolver } from '../../../core/ssrf.js';
import { newV3Id } from '../../../core/v3/keys.js';
import { requireLicense } from '../../../license/gate.js';
import { type AuthEnv, requireKeyOrToken } from '../../auth/middleware.js';
import type { AppContext } from '../../context.js';
import { OcrHistory } from '../../results/ocr-history.js';
import { imageFailure, imageStage, takeImageSlot } from './image-accounting.js';
import { imageFromSrc, prepareImage } from './text-image.js';
import { type InferencePool, type Recognize, routeRecognizer } from './text-inference.js';
import { parseTextOptions, regionOf, type TextOptions } from './text-options.js';
import { assemblyOf, buildTextResult } from './text-result.js';
import { readImageRequest } from './image-request.js';

/** Spec 8: JSON body limit of v3/text. */
const MAX_JSON_BYTES = 5 * 1024 * 1024;

export interface V3TextRouteOptions {
  /** DNS for the src URL check (tests). */
  resolve?: Resolver;
  /** Reads a prepared image; defaults to the inference pool through the 'page' queue. */
  recognize?: Recognize;
  /** Called with the pool the routes made, so its owner can close it (tests). */
  onPool?: (pool: InferencePool) => void;
}

/**
 * POST /v3/text (spec 4.2, answer 2.1): JSON {src, ...options} or multipart file + options_json,
 * app_id + app_key or an app token (part 5), refused while the licence is blocked.
 *
 * - At most FOLIO_TEXT_REQUESTS_MAX requests in flight (ctx.textRequests.inFlight, shown on
 *   /health); one more answers 429 http_max_requests with limit_name, limit_value and count.
 * - Image failures answer HTTP 200 with error/error_info, as the hosted service does:
 *   image_download_error (with url), image_decode_error, math_confidence, and sys_exception
 *   when the inference pool does not answer. Parameter errors are 400 (bad_request,
 *   opts_unknown_data_option), oversized bodies sys_request_too_large.
 * - Unknown top-level options are accepted and ignored (see text-options.ts).
 * - async: true answers {request_id} at once; the result is recorded for GET /v3/ocr-results
 *   (request_id filter; its image_id is the request id), as the official client polls for it.
 *   callback is accepted and not called.
 * - History (4.6): every request that reaches the image stage is recorded for GET /v3/ocr-usage;
 *   its arguments and answer are stored for GET /v3/ocr-results unless metadata.improve_* is false.
 * - Usage: every request that reaches the image stage emits one usage event (event id
 *   usage:text:<request_id>): images_completed + images_billable on success, images_failed otherwise.
 */
export function v3TextRoutes(ctx: AppContext, opts: V3TextRouteOptions = {}): Hono {
  const app = new Hono<AuthEnv>();
  const read = routeRecognizer(ctx, opts);
  const history = new OcrHistory(ctx.db);
  const fetchOpts = { allowPrivate: ctx.config.FOLIO_ALLOW_PRIVATE_URLS, resolve: opts.resolve };
  app.post('/v3/text', requireKeyOrToken(ctx), requireLicense(ctx), async (c) => {
    const release = takeImageSlot(ctx);
    const requestId = newV3Id(ctx.now());
    const started = ctx.now();
    /** The image stage: every request that reaches it is counted and remembered, failed or not. */
    const answer = (parsed: TextOptions, upload: Buffer | undefined) =>
      imageStage(
        ctx,
        history,
        { usage: 'text', requestId, auth: c.get('auth'), endpoint: '/v3/text', usageType: 'image', args: parsed, startedMs: started },
        async () => {
          const bytes = upload ?? (await imageFromSrc(parsed.src!, fetchOpts));
          const image = await prepareImage(bytes, regionOf(parsed));
          const page = await read(requestId, image.png, {
            math: 'auto',
            assemble: assemblyOf(parsed),
            ...(parsed.include_smiles ? { smiles: true, inchi: parsed.include_inchi } : {}),
          });
          return (await buildTextResult(requestId, { ...page, width: image.width, height: image.height }, parsed)) as Record<string, unknown>;
        },
      );
    let held = true;
    try {
      const request = await readImageRequest(c.req.raw, parseTextOptions, MAX_JSON_BYTES);
      const parsed = request.options;
      if (parsed.async) {
        // Non-interactive: the answer is the request id now; the result is read from
        // GET /v3/ocr-results?request_id=… once recorded (its image_id is this request id). The
        // slot stays taken until the image is read, so async requests count against the limit too.
        held = false;
        void answer(parsed, request.upload).finally(release);
        return c.json({ request_id: requestId });
      }
      const { body, status } = await answer(parsed, request.upload);
      return c.json(body, status);
    } catch (err) {
      // Parameter errors and unread bodies are not image requests: neither counted nor remembered.
      const { body, status } = imageFailure(ctx, requestId, err, 'text');
      return c.json(body, status);
    } finally {
      if (held) release();
    }
  });

  return app as unknown as Hono;
}
