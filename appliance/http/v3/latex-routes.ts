import { Hono } from 'hono';
import type { Resolver } from '../../../core/ssrf.js';
import { newV3Id } from '../../../core/v3/keys.js';
import { requireLicense } from '../../../license/gate.js';
import { type AuthEnv, requireAppKey } from '../../auth/middleware.js';
import type { AppContext } from '../../context.js';
import { OcrHistory } from '../../results/ocr-history.js';
import { imageFailure, imageStage, takeImageSlot } from './image-accounting.js';
import { buildLatexResult } from './latex-result.js';
import { type LatexOptions, parseLatexOptions } from './latex-options.js';
import { checkLegacyCallback, deliverLegacyCallback } from './legacy-callback.js';
import { imageFromSrc, prepareImage } from './text-image.js';
import { type InferencePool, type Recognize, routeRecognizer } from './text-inference.js';
import { regionOf, type TextOptions } from './text-options.js';
import { readImageRequest } from './image-request.js';

/** Spec 8: JSON body limit of v3/latex. */
const MAX_JSON_BYTES = 5 * 1024 * 1024;

export interface V3LatexRouteOptions {
  /** DNS for the src and callback URL checks (tests). */
  resolve?: Resolver;
  /** Reads a prepared image; defaults to the inference pool through the 'page' queue. */
  recognize?: Recognize;
  onPool?: (pool: InferencePool) => void;
}

/**
 * POST /v3/latex (4.4, deprecated; answer 2.2), app_id + app_key only (part 5), refused while the
 * licence is blocked. JSON {src, formats, ...} or multipart file + options_json.
 *
 * - The image is read by the inference pool at high priority: with ocr [math] (default) the whole
 *   image, turned upright, as one formula; with ocr [math, text] line by line (latex-result.ts).
 * - beam_size and n_best: the answer lists `candidates`, the n_best best distinct formulas built
 *   from the symbol classifier's runner-up labels (beam_size only bounds n_best: the search is
 *   exhaustive best-first, not a beam).
 * - Limits, errors, usage and history as /v3/text: the in-flight cap it shares with /v3/text,
 *   image errors with HTTP 200, usage event usage:latex:<request_id>, history with usage type image.
 * - callback (6.3): the answer is {session_id} at once; the result (or error body) is POSTed to
 *   callback.post as {reply, result}.
 */
export function v3LatexRoutes(ctx: AppContext, opts: V3LatexRouteOptions = {}): Hono {
  const app = new Hono<AuthEnv>();
  const read = routeRecognizer(ctx, opts);
  const history = new OcrHistory(ctx.db);
  const fetchOpts = { allowPrivate: ctx.config.FOLIO_ALLOW_PRIVATE_URLS, resolve: opts.resolve };

  app.post('/v3/latex', requireAppKey(ctx, { appIdRequired: true }), requireLicense(ctx), async (c) => {
    const release = takeImageSlot(ctx);
    const requestId = newV3Id(ctx.now());
    const started = ctx.now();
    const auth = c.get('auth');
    let options: LatexOptions | undefined;
    let bytes: Buffer | undefined;
    let background = false;
    const answer = () =>
      imageStage(ctx, history, { usage: 'latex', requestId, auth, endpoint: '/v3/latex', usageType: 'image', args: options!, startedMs: started }, async () => {
        const image = await prepareImage(bytes ?? (await imageFromSrc(options!.src!, fetchOpts)), regionOf(options as TextOptions));
        const math = options!.ocr.includes('text') ? 'auto' : 'formula';
        const page = await read(requestId, image.png, { math, nBest: options!.n_best });
        return buildLatexResult(requestId, page, image.png, options!, regionOf(options as TextOptions));
      });
    try {
      const request = await readImageRequest(c.req.raw, parseLatexOptions, MAX_JSON_BYTES);
      options = request.options;
      bytes = request.upload;
      const callback = request.options.callback;
      if (callback) {
        await checkLegacyCallback(callback, fetchOpts);
        background = true;
        void answer()
          .then(({ body }) => deliverLegacyCallback(callback, body, { ...fetchOpts, logger: ctx.logger }))
          .finally(release);
        return c.json({ session_id: requestId });
      }
      const { body, status } = await answer();
      return c.json(body, status);
    } catch (err) {
      // Parameter errors and unread bodies are not image requests: neither counted nor remembered.
      const { body, status } = imageFailure(ctx, requestId, err, 'latex');
      return c.json(body, status);
    } finally {
      if (!background) release();
    }
  });

  return app as unknown as Hono;
}
