import { Hono } from 'hono';
import { ApiError } from '../../../core/errors.js';
import type { Resolver } from '../../../core/ssrf.js';
import { newV3Id } from '../../../core/v3/keys.js';
import { requireLicense } from '../../../license/gate.js';
import { type AuthEnv, requireAppKey } from '../../auth/middleware.js';
import type { AppContext } from '../../context.js';
import { readJson } from '../read-json.js';
import { parseBatch } from './batch-options.js';
import { BatchRunner } from './batch-runner.js';
import { checkLegacyCallback } from './legacy-callback.js';
import { type InferencePool, type Recognize, routeRecognizer } from './text-inference.js';

/** Spec 8: JSON body limit of v3/batch. */
const MAX_JSON_BYTES = 5 * 1024 * 1024;

export interface V3BatchRouteOptions {
  resolve?: Resolver;
  /** Reads a prepared image; defaults to the inference pool through the 'page' queue. */
  recognize?: Recognize;
}

export interface V3BatchRoutes {
  routes: Hono;
  /** Resumes batches left open by a previous run; call once the HTTP server is up. */
  start(): Promise<void>;
  /** Stops taking images and waits for those in flight. */
  stop(): Promise<void>;
}

/**
 * The legacy image batch (4.5, answer 2.7), app_id + app_key only:
 * - POST /v3/batch validates every image's options, stores the batch and answers {batch_id} (with
 *   a callback, the callback's reply object with batch_id set in it, 6.3); images are then read
 *   asynchronously (batch-runner.ts). Refused while the licence is blocked, as /v3/text is.
 * - GET /v3/batch/{batch_id}: {keys, results}, results holding the images settled so far. Only the
 *   submitting app sees a batch; for any other, and after the week the record lives, 404 not_found.
 */
export function v3BatchRoutes(ctx: AppContext, opts: V3BatchRouteOptions = {}): V3BatchRoutes {
  const app = new Hono<AuthEnv>();
  let pool: InferencePool | undefined;
  const runner = new BatchRunner(ctx, { recognize: routeRecognizer(ctx, { recognize: opts.recognize, onPool: (p) => (pool = p) }), resolve: opts.resolve });
  const fetchOpts = { allowPrivate: ctx.config.FOLIO_ALLOW_PRIVATE_URLS, resolve: opts.resolve };

  app.post('/v3/batch', requireAppKey(ctx, { appIdRequired: true }), requireLicense(ctx), async (c) => {
    const auth = c.get('auth');
    const submission = parseBatch(await readJson(c.req.raw, MAX_JSON_BYTES));
    if (submission.callback) await checkLegacyCallback(submission.callback, fetchOpts);
    const batchId = newV3Id(ctx.now());
    const record = {
      batch_id: batchId,
      app_id: auth.appId,
      group_id: auth.groupId,
      created_at: new Date(ctx.now()).toISOString(),
      ocr_behavior: submission.ocrBehavior,
      items: submission.items,
      ...(submission.callback ? { callback: submission.callback } : {}),
    };
    await runner.store.create(record);
    runner.submit(record);
    const reply = submission.callback?.reply;
    return c.json(reply && typeof reply === 'object' && !Array.isArray(reply) ? { ...reply, batch_id: batchId } : { batch_id: batchId });
  });

  app.get('/v3/batch/:batchId', requireAppKey(ctx, { appIdRequired: true }), async (c) => {
    const found = await runner.store.get(c.req.param('batchId'));
    if (!found || found.record.app_id !== c.get('auth').appId) throw new ApiError('not_found', 'No such batch');
    return c.json({ keys: found.record.items.map((i) => i.key), results: found.results });
  });

  return {
    routes: app as unknown as Hono,
    start: () => runner.start(),
    async stop() {
      await runner.stop();
      await pool?.close();
    },
  };
}
