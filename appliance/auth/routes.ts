import { Hono } from 'hono';
import { ApiError } from '../../core/errors.js';
import { readOptionalObject } from '../http/read-json.js';
import { AppKeyStore, DEFAULT_GROUP_ID } from './keys.js';
import { type AuthContext, requireAppKey } from './middleware.js';
import { AppTokens, parseTokenRequest } from './tokens.js';

const MAX_BODY_BYTES = 16 * 1024;

/**
 * POST /v3/app-tokens (spec 4.1, header app_key only; body opt user_id too), GET and DELETE
 * /v3/app-tokens/{app_token} (app_key only, as the official client calls them: the token with its
 * app_token_expires_at, app_id, group_id and user_id; DELETE ends it at once; a token unknown,
 * expired, deleted or of another group answers HTTP 200 with error token_unknown), and the operator's key management, an
 * extension of the private-cloud surface (4.14) that, like the rest of /pco/v1, takes no
 * credentials: whoever can reach /pco/v1 on the network operates the appliance.
 *
 * - POST   /pco/v1/apps {name, group_id?}  → 201 {app_id, name, group_id, created_at}; 200 with the
 *   existing app when the name is taken in the same group, 409 conflict in another group.
 * - POST   /pco/v1/apps/{app_id}/keys      → 201 {app_key, key_id, prefix, app_id, created_at,
 *   revoked_at}; the only answer that ever carries app_key. 404 not_found for an unknown app.
 * - GET    /pco/v1/keys                    → {keys: [{key_id, app_id, app_name, prefix, created_at, revoked_at}]}, newest first.
 * - DELETE /pco/v1/keys/{key_id}           → {key_id, revoked_at}; a display prefix also names a key.
 *   Revocation is final and takes the key's app tokens with it; revoking twice keeps the first time.
 */
export function authRoutes(ctx: AuthContext): Hono {
  const app = new Hono();
  const keys = new AppKeyStore({ db: ctx.db, now: ctx.now });
  const tokens = new AppTokens({ db: ctx.db, now: ctx.now });

  app.post('/v3/app-tokens', requireAppKey(ctx, { appIdRequired: false }), async (c) => {
    const request = parseTokenRequest(await readOptionalObject(c.req.raw, MAX_BODY_BYTES));
    return c.json(tokens.issue(c.get('auth'), request));
  });

  const tokenUnknown = () => new ApiError('token_unknown', 'Unknown, expired or deleted app_token');
  app.get('/v3/app-tokens/:app_token', requireAppKey(ctx, { appIdRequired: false }), (c) => {
    const found = tokens.info(c.req.param('app_token'), c.get('auth').groupId);
    if (!found) throw tokenUnknown();
    return c.json(found);
  });
  app.delete('/v3/app-tokens/:app_token', requireAppKey(ctx, { appIdRequired: false }), (c) => {
    const found = tokens.revoke(c.req.param('app_token'), c.get('auth').groupId);
    if (!found) throw tokenUnknown();
    return c.json(found);
  });

  app.post('/pco/v1/apps', async (c) => {
    const body = await readOptionalObject(c.req.raw, MAX_BODY_BYTES);
    if (typeof body?.name !== 'string') throw new ApiError('bad_request', 'name must be a string', { field: 'name' });
    const groupId = body.group_id ?? DEFAULT_GROUP_ID;
    if (typeof groupId !== 'string' || !/^[\w.-]{1,64}$/.test(groupId)) {
      throw new ApiError('bad_request', 'group_id must be 1 to 64 letters, digits, "_", "." or "-"', { field: 'group_id' });
    }
    const { app: created, created: isNew } = keys.createApp(body.name, groupId);
    return c.json(created, isNew ? 201 : 200);
  });

  app.post('/pco/v1/apps/:app_id/keys', (c) => c.json(keys.createKey(c.req.param('app_id')), 201));

  app.get('/pco/v1/keys', (c) => c.json({ keys: keys.listKeys() }));

  app.delete('/pco/v1/keys/:key_id', (c) => {
    const key = keys.revokeKey(c.req.param('key_id'));
    ctx.logger.info({ key_id: key.key_id, app_id: key.app_id }, 'app key revoked');
    return c.json({ key_id: key.key_id, revoked_at: key.revoked_at });
  });

  return app;
}
