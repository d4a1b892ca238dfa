import { Hono } from 'hono';
import { ApiError } from '../../../core/errors.js';
import type { AuthEnv } from '../../auth/middleware.js';
import { filesGuard } from './guard.js';
import type { AppContext } from '../../context.js';
import { countWebhookTest, filesWebhookSecrets } from '../../files/webhook-config/index.js';
import { parseCallbackParams } from '../../webhooks/callback-params.js';
import { TEST_FILE_ID } from '../../webhooks/routes.js';
import type { SecretState } from '../../webhooks/secrets.js';
import { sendNotification, type SendOptions } from '../../webhooks/send.js';
import { readOptionalObject } from '../read-json.js';

const MAX_BODY_BYTES = 64 * 1024;

const secretBody = (s: SecretState) => ({ signing_secret: s.secret, previous_secret_expires_at: s.previousSecretExpiresAt });

/**
 * Files API webhook configuration (spec 4.12, 3.7), header app_key only; the secret belongs to the
 * key's application (scope `files:<app_id>`, spec 4.12) and signs every Files API notification of the app.
 *
 * - GET  /files/v1/webhook-config        → {signing_secret}, created on first call
 * - POST /files/v1/webhook-config/secret → {signing_secret, previous_secret_expires_at}; body opt {force: bool}
 * - POST /files/v1/webhook-config/test   → {status, response_code, detail}; 10 per minute per app_key
 *
 * `opts` only changes how test sends connect (resolver, extra CAs).
 */
export function filesWebhookConfigRoutes(ctx: AppContext, opts: SendOptions = {}): Hono {
  const app = new Hono<AuthEnv>();
  const [ipLimit, withKey, keyLimit] = filesGuard(ctx);
  const send: SendOptions = { ...opts, allowPrivate: opts.allowPrivate ?? ctx.config.FOLIO_ALLOW_PRIVATE_URLS };

  app.get('/files/v1/webhook-config', ipLimit, withKey, keyLimit, (c) =>
    c.json({ signing_secret: filesWebhookSecrets(ctx, c.get('auth').appId).getOrCreate().secret }),
  );

  app.post('/files/v1/webhook-config/secret', ipLimit, withKey, keyLimit, async (c) => {
    const body = await readOptionalObject(c.req.raw, MAX_BODY_BYTES);
    // A present non-boolean, null included, is refused rather than read as false (spec 4.12).
    if (body && 'force' in body && typeof body.force !== 'boolean') throw new ApiError('bad_request', 'force must be a boolean', { field: 'force' });
    const { groupId, appId } = c.get('auth');
    const state = filesWebhookSecrets(ctx, appId).rotate(body?.force === true);
    ctx.logger.info(
      { group_id: groupId, app_id: appId, forced: body?.force === true, previous_secret_expires_at: state.previousSecretExpiresAt },
      'files signing secret rotated',
    );
    return c.json(secretBody(state));
  });

  app.post('/files/v1/webhook-config/test', ipLimit, withKey, keyLimit, async (c) => {
    const body = await readOptionalObject(c.req.raw, MAX_BODY_BYTES);
    if (!body) throw new ApiError('bad_request', 'Body with callback_url required');
    if (typeof body.callback_url !== 'string') throw new ApiError('bad_request', 'callback_url must be a string', { field: 'callback_url' });
    const { keyId, appId } = c.get('auth');
    // Counted before the URL is resolved, so the limit also bounds DNS lookups made for the caller.
    await countWebhookTest(ctx.redis, ctx.config.FOLIO_QUEUE_PREFIX, keyId, ctx.now());
    const params = await parseCallbackParams(
      { callback_url: body.callback_url, callback_headers: body.callback_headers },
      { errorId: 'bad_request', allowPrivate: send.allowPrivate, resolve: send.resolve },
    );
    const payload = { event: 'file.completed', file_id: TEST_FILE_ID, status: 'completed', num_pages: 1, num_pages_completed: 1 };
    // One synchronous attempt; a refusing endpoint is this call's answer, not its error.
    const out = await sendNotification(
      { url: params!.url, headers: params!.headers, payload, secrets: filesWebhookSecrets(ctx, appId).activeSecrets(), nowMs: ctx.now() },
      send,
    );
    return c.json({ status: out.result === 'delivered' ? 'delivered' : 'failed', response_code: out.httpStatus, detail: out.detail });
  });

  return app as unknown as Hono;
}
