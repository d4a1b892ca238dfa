import type { MiddlewareHandler } from 'hono';
import { type AuthEnv, requireAppKey } from '../../auth/middleware.js';
import type { AppContext } from '../../context.js';
import { perIpRateLimit, perKeyRateLimit } from '../../files/quotas.js';

export type FilesGuard = [ipLimit: MiddlewareHandler<AuthEnv>, withKey: MiddlewareHandler<AuthEnv>, keyLimit: MiddlewareHandler<AuthEnv>];

/**
 * What every Files API route runs first: the per-minute limit per client address, the app_key
 * (spec part 5: app_key only), then the per-minute limit per key (spec 8).
 */
export function filesGuard(ctx: AppContext): FilesGuard {
  return [perIpRateLimit(ctx) as MiddlewareHandler<AuthEnv>, requireAppKey(ctx, { appIdRequired: false }), perKeyRateLimit(ctx)];
}
