import { Hono } from 'hono';
import { ApiError, toApiError } from '../../../core/errors.js';
import type { Resolver } from '../../../core/ssrf.js';
import { newV3Id } from '../../../core/v3/keys.js';
import { requireLicense } from '../../../license/gate.js';
import { type AuthEnv, requireKeyOrToken } from '../../auth/middleware.js';
import type { AppContext } from '../../context.js';
import { OcrHistory } from '../../results/ocr-history.js';
import { emitImageUsage, recordImage, takeImageSlot } from './image-accounting.js';
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
    let options: TextOptions | undefined;
    const usage = (ok: boolean) => emitImageUsage(ctx, 'text', requestId, ok);
    const remember = (result: Record<string, unknown>) =>
      recordImage(ctx, history, { requestId, auth: c.get('auth'), endpoint: '/v3/text', usageType: 'image', args: options ?? {}, startedMs: started, result });
    /** The image stage: every request that reaches it is counted and remembered, failed or not. */
    const answer = async (
      parsed: TextOptions,
      upload: Buffer | undefined,
    ): Promise<{ body: Record<string, unknown>; status: ReturnType<typeof errorAnswer>['status'] }> => {
      try {
        const bytes = upload ?? (await imageFromSrc(parsed.src!, fetchOpts));
        const image = await prepareImage(bytes, regionOf(parsed));
        const page = await read(requestId, image.png, {
          math: 'auto',
          assemble: assemblyOf(parsed),
          ...(parsed.include_smiles ? { smiles: true, inchi: parsed.include_inchi } : {}),
        });
        const body = (await buildTextResult(requestId, { ...page, width: image.width, height: image.height }, parsed)) as Record<string, unknown>;
        await usage(true);
        remember(body);
        return { body, status: 200 };
      } catch (err) {
        const failed = errorAnswer(err);
        if (failed.apiErr.id !== 'bad_request') {
          await usage(false);
          remember(failed.body);
        }
        return failed;
      }
    };
    const errorAnswer = (err: unknown) => {
      const apiErr = toApiError(err);
      if (!(err instanceof ApiError)) ctx.logger.error({ request_id: requestId, err: (err as Error).message }, 'text request failed');
      // 7.1: v3 image failures, internal errors included, come back with HTTP 200.
      return {
        apiErr,
        body: { request_id: requestId, ...apiErr.toBody() } as Record<string, unknown>,
        status: apiErr.id === 'sys_exception' ? 200 : apiErr.status,
      };
    };
    let held = true;
    try {
      const request = await readImageRequest(c.req.raw, parseTextOptions, MAX_JSON_BYTES);
      const parsed = (options = request.options);
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
      const { body, status } = errorAnswer(err);
      return c.json(body, status);
    } finally {
      if (held) release();
    }
  });

  return app as unknown as Hono;
}
