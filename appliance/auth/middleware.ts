import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from '../../core/errors.js';
import { safeEqual } from '../../core/ids.js';
import type { AppContext } from '../context.js';
import { AppKeyStore, type VerifiedKey } from './keys.js';
import { AppTokens } from './tokens.js';

/** Credential headers of spec part 5. app_key and app_token are redacted by core/logging.ts; none is ever logged here. */
export const APP_ID_HEADER = 'app_id';
export const APP_KEY_HEADER = 'app_key';
export const APP_TOKEN_HEADER = 'app_token';
export const STROKES_SESSION_HEADER = 'strokes_session_id';

/** Who a request speaks for, set as `c.get('auth')` by the middlewares below. */
export interface AppAuth extends VerifiedKey {
  via: 'key' | 'token';
  /** The strokes session of the token, on token requests that carry one. */
  strokesSessionId?: string;
}

export type AuthEnv = { Variables: { auth: AppAuth } };

/** What the middlewares need of the appliance. */
export type AuthContext = Pick<AppContext, 'db' | 'logger' | 'now'>;

const refuse = (message: string) => new ApiError('unauthorized', message);

/** Logs why credentials were refused: the reason, the route and non-secret ids only. */
/** A request path as logs may show it: an app token in the path (/v3/app-tokens/{app_token}) is never written. */
export function loggablePath(path: string): string {
  return path.replace(/^(\/v3\/app-tokens\/)[^/]+/, '$1:app_token');
}

function logRefusal(ctx: AuthContext, c: Context, reason: string, extra: Record<string, unknown> = {}): void {
  ctx.logger.info({ auth_refused: reason, method: c.req.method, path: loggablePath(c.req.path), ...extra }, 'credentials refused');
}

/** Verifies app_key (and app_id when required or given); throws 401 unauthorized. */
function authenticateKey(ctx: AuthContext, keys: AppKeyStore, c: Context, appIdRequired: boolean): AppAuth {
  const appKey = c.req.header(APP_KEY_HEADER);
  const appId = c.req.header(APP_ID_HEADER);
  if (!appKey) {
    logRefusal(ctx, c, c.req.header(APP_TOKEN_HEADER) ? 'token_on_key_route' : 'missing_key');
    throw refuse('Missing app_key');
  }
  if (appIdRequired && !appId) {
    logRefusal(ctx, c, 'missing_app_id');
    throw refuse('Missing app_id');
  }
  const check = keys.verifyKey(appKey, appId);
  if (!check.ok) {
    logRefusal(ctx, c, check.reason, { app_id: appId });
    throw refuse(check.reason === 'app_mismatch' ? 'app_id does not match app_key' : 'Invalid app_key');
  }
  return { ...check.key, via: 'key' };
}

/**
 * Routes that take an app key only (spec part 5: app_id + app_key, or app_key only). An app token
 * here answers 401 like a missing key: tokens never reach PDF, batch, history or account data.
 * `appIdRequired` false still checks app_id against the key when the header is present.
 */
export function requireAppKey(ctx: AuthContext, opts: { appIdRequired: boolean }): MiddlewareHandler<AuthEnv> {
  const keys = new AppKeyStore({ db: ctx.db, now: ctx.now });
  return async (c, next) => {
    c.set('auth', authenticateKey(ctx, keys, c, opts.appIdRequired));
    await next();
  };
}

/**
 * Routes that take app_id + app_key or an app token (POST /v3/text; POST /v3/strokes with
 * `strokes`, where a token must come with the strokes_session_id it was issued with). A request
 * carrying app_key is judged by the key alone.
 */
export function requireKeyOrToken(ctx: AuthContext, opts: { /** @default false */ strokes?: boolean } = {}): MiddlewareHandler<AuthEnv> {
  const keys = new AppKeyStore({ db: ctx.db, now: ctx.now });
  const tokens = new AppTokens({ db: ctx.db, now: ctx.now });
  return async (c, next) => {
    const appToken = c.req.header(APP_TOKEN_HEADER);
    if (c.req.header(APP_KEY_HEADER) || !appToken) {
      c.set('auth', authenticateKey(ctx, keys, c, true));
      return next();
    }
    const check = tokens.verify(appToken);
    if (!check.ok) {
      logRefusal(ctx, c, `token_${check.reason}`);
      throw refuse(check.reason === 'expired' ? 'Expired app_token' : 'Invalid app_token');
    }
    const { strokesSessionId, expiresAt: _expiresAt, ...key } = check.token;
    const auth: AppAuth = { ...key, via: 'token', ...(strokesSessionId ? { strokesSessionId } : {}) };
    if (opts.strokes) {
      const presented = c.req.header(STROKES_SESSION_HEADER);
      if (!presented) {
        logRefusal(ctx, c, 'missing_strokes_session', { app_id: key.appId });
        throw refuse('Missing strokes_session_id');
      }
      if (!strokesSessionId || !safeEqual(presented, strokesSessionId)) {
        logRefusal(ctx, c, 'strokes_session_mismatch', { app_id: key.appId });
        throw refuse('Invalid strokes_session_id');
      }
    }
    c.set('auth', auth);
    await next();
  };
}
