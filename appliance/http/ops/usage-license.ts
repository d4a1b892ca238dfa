import { Hono } from 'hono';
import { ApiError } from '../../../core/errors.js';
import { withDeadline } from '../../../core/redis.js';
import { currentLicense } from '../../../license/state.js';
import type { AppContext } from '../../context.js';
import { addDays, daySpan, isDay, readUsage } from '../../metering/ledger.js';
import { STATEMENT_VERSION } from '../../metering/reporter.js';

/** Spec 4.14: a usage query covers at most 366 days, by default the last 30 (today included). */
export const MAX_USAGE_DAYS = 366;
export const DEFAULT_USAGE_DAYS = 30;
const LICENSE_READ_DEADLINE_MS = 400;

type UsageContext = Pick<AppContext, 'config' | 'db' | 'redis' | 'now'>;

/** Resolves and validates ?from&to (YYYY-MM-DD UTC, inclusive); today is the UTC date of `now`. */
export function usageRange(query: { from?: string; to?: string }, now: number): { from: string; to: string } {
  for (const [name, v] of Object.entries(query)) {
    if (v !== undefined && !isDay(v)) throw new ApiError('bad_request', `${name} must be a date written YYYY-MM-DD (UTC)`);
  }
  // to defaults to today even when from is given: ?from=X reads "since X".
  const to = query.to ?? new Date(now).toISOString().slice(0, 10);
  const from = query.from ?? addDays(to, -(DEFAULT_USAGE_DAYS - 1));
  if (from > to) throw new ApiError('bad_request', 'from must not be after to');
  if (daySpan(from, to) > MAX_USAGE_DAYS) throw new ApiError('bad_request', `a usage query covers at most ${MAX_USAGE_DAYS} days`);
  return { from, to };
}

/** GET /pco/v1/usage, GET /pco/v1/usage/export and GET /pco/v1/license (spec 4.14). No credentials. */
export function usageLicenseRoutes(ctx: UsageContext): Hono {
  const app = new Hono();
  const { config } = ctx;
  const usage = (q: { from?: string; to?: string }) => {
    const { from, to } = usageRange(q, ctx.now());
    return readUsage(ctx.db, from, to);
  };
  const query = (c: { req: { query(k: string): string | undefined } }) => ({ from: c.req.query('from'), to: c.req.query('to') });

  app.get('/pco/v1/usage', (c) => c.json(usage(query(c))));

  app.get('/pco/v1/usage/export', (c) => {
    const body = {
      statement_version: STATEMENT_VERSION,
      exported_at: new Date(ctx.now()).toISOString(),
      deployment_id: config.FOLIO_DEPLOYMENT_ID,
      customer: config.FOLIO_CUSTOMER,
      build_id: config.FOLIO_BUILD_ID,
      license_mode: config.FOLIO_LICENSE_MODE,
      metering_mode: config.FOLIO_METERING_MODE,
      ...usage(query(c)),
    };
    const name = `folio-usage-${config.FOLIO_DEPLOYMENT_ID.replace(/[^A-Za-z0-9._-]/g, '_')}-${body.from}-${body.to}.json`;
    return c.json(body, 200, { 'content-disposition': `attachment; filename="${name}"` });
  });

  app.get('/pco/v1/license', async (c) => {
    const { FOLIO_QUEUE_PREFIX: prefix, FOLIO_LICENSE_MODE: mode, FOLIO_DEPLOYMENT_ID: deploymentId } = config;
    const rec = await withDeadline(currentLicense(ctx.redis, prefix, mode, deploymentId, ctx.now()), LICENSE_READ_DEADLINE_MS).catch(() => null);
    if (rec) return c.json(rec);
    // As on /health: with the state store away the status is unknown, never a guess.
    return c.json({
      status: 'unknown',
      license_mode: mode,
      deployment_id: deploymentId,
      last_verified_at: null,
      last_checked_at: null,
      consecutive_failures: null,
      grace_ends_at: null,
      expires_at: null,
      last_error: null,
    });
  });
  return app;
}
