import { Hono } from 'hono';
import { ApiError } from '../../core/errors.js';
import { readOptionalObject } from '../http/read-json.js';
import { parseCallbackParams } from './callback-params.js';
import { listDeliveries, type WebhookContext } from './deliveries.js';
import { PCO_SECRET_KEY, type SecretState, WebhookSecrets } from './secrets.js';
import { sendNotification, type SendOptions } from './send.js';

/** The reserved file_id of test notifications (spec 2.12). */
export const TEST_FILE_ID = '00000000-0000-0000-0000-000000000000';
const MAX_BODY_BYTES = 64 * 1024;

const secretBody = (s: SecretState) => ({ secret: s.secret, previous_secret_expires_at: s.previousSecretExpiresAt });

/**
 * The deployment's webhook endpoints (spec 4.13): GET /pco/v1/webhook-config, POST
 * /pco/v1/webhook-config/secret, POST /pco/v1/webhook-config/test and GET /pco/v1/deliveries.
 * Errors leave as ApiError for the app's one envelope. `opts` only changes how test sends connect.
 */
export function pcoWebhookRoutes(ctx: WebhookContext, opts: SendOptions = {}): Hono {
  const app = new Hono();
  const secrets = new WebhookSecrets({ db: ctx.db, key: PCO_SECRET_KEY, now: ctx.now });
  const send: SendOptions = { ...opts, allowPrivate: opts.allowPrivate ?? ctx.config.FOLIO_ALLOW_PRIVATE_URLS };

  app.get('/pco/v1/webhook-config', (c) => c.json(secretBody(secrets.getOrCreate())));

  app.post('/pco/v1/webhook-config/secret', async (c) => {
    const body = await readOptionalObject(c.req.raw, MAX_BODY_BYTES);
    const force = body?.force;
    // A present non-boolean, null included, is refused rather than read as false (spec 4.12).
    if (body && 'force' in body && typeof force !== 'boolean') throw new ApiError('bad_request', 'force must be a boolean', { field: 'force' });
    return c.json(secretBody(secrets.rotate(force === true)));
  });

  app.post('/pco/v1/webhook-config/test', async (c) => {
    const body = await readOptionalObject(c.req.raw, MAX_BODY_BYTES);
    if (!body) throw new ApiError('bad_request', 'Body with callback_url required');
    if (typeof body.callback_url !== 'string') throw new ApiError('bad_request', 'callback_url must be a string', { field: 'callback_url' });
    const params = await parseCallbackParams(
      { callback_url: body.callback_url, callback_headers: body.callback_headers },
      { errorId: 'bad_request', allowPrivate: send.allowPrivate, resolve: send.resolve },
    );
    const payload = { event: 'file.completed', file_id: TEST_FILE_ID, status: 'completed', num_pages: 1, num_pages_completed: 1 };
    // One synchronous attempt; a refusing endpoint is this call's answer, not its error.
    const out = await sendNotification({ url: params!.url, headers: params!.headers, payload, secrets: secrets.activeSecrets(), nowMs: ctx.now() }, send);
    return c.json({ status: out.result === 'delivered' ? 'delivered' : 'failed', response_code: out.httpStatus, detail: out.detail });
  });

  app.get('/pco/v1/deliveries', (c) => {
    const jobId = c.req.query('job_id');
    if (!jobId) throw new ApiError('bad_request', 'job_id query parameter required', { field: 'job_id' });
    return c.json({ deliveries: listDeliveries(ctx, { jobId }) });
  });

  return app;
}
