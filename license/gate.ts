import type { MiddlewareHandler } from 'hono';
import type { Redis } from 'ioredis';
import type { Config } from '../core/config.js';
import { ApiError } from '../core/errors.js';
import { withDeadline } from '../core/redis.js';
import { currentLicense } from './state.js';

/** Longest the gate waits for the licence record before letting the request through. */
export const GATE_READ_DEADLINE_MS = 400;

export interface LicenseGateContext {
  redis: Redis;
  config: Pick<Config, 'FOLIO_QUEUE_PREFIX' | 'FOLIO_LICENSE_MODE' | 'FOLIO_DEPLOYMENT_ID'>;
  now: () => number;
}

/**
 * Answers 503 license_unverified while the licence is blocked (spec 3.9). Mounted only on the
 * submission routes (POST /v3/pdf, POST /v3/text, POST /pco/v1/jobs): downloads, status and
 * in-flight documents keep working. Grace, verified and not_enforced pass.
 *
 * If the record cannot be read the request passes: blocking needs positive knowledge, and a
 * submission that needs Redis fails on its own while Redis is away.
 */
export function requireLicense(ctx: LicenseGateContext): MiddlewareHandler {
  const { FOLIO_QUEUE_PREFIX: prefix, FOLIO_LICENSE_MODE: mode, FOLIO_DEPLOYMENT_ID: deploymentId } = ctx.config;
  return async (_c, next) => {
    const now = ctx.now();
    const rec = await withDeadline(currentLicense(ctx.redis, prefix, mode, deploymentId, now), GATE_READ_DEADLINE_MS).catch(() => null);
    if (rec?.status === 'blocked') {
      throw new ApiError(
        'license_unverified',
        'The licence has not been verified for 24 hours; new submissions are refused until a licence check succeeds. Downloads and status keep working.',
        { last_verified_at: rec.last_verified_at, grace_ends_at: rec.grace_ends_at },
      );
    }
    await next();
  };
}
