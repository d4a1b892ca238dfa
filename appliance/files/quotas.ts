import type Database from 'better-sqlite3';
import type { MiddlewareHandler } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { ApiError } from '../../core/errors.js';
import type { AuthEnv } from '../auth/middleware.js';
import type { AppContext } from '../context.js';
import { filesSettings } from './settings.js';

/** The id a quota refusal carries: quota_exceeded on the Files API, http_max_requests on /v3/pdf (spec 8). */
export type QuotaErrorId = 'quota_exceeded' | 'http_max_requests';

export interface MonthlyLimits {
  pageMonthlyLimit: number;
  fileMonthlyLimit: number;
}

/** Billing months are UTC calendar months. */
export const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7);

function usage(db: Database.Database, appId: string, month: string): { files: number; pages: number } {
  return (
    (db.prepare('SELECT files, pages FROM app_usage_months WHERE app_id = ? AND month = ?').get(appId, month) as
      { files: number; pages: number } | undefined) ?? { files: 0, pages: 0 }
  );
}

/**
 * Refuses a submission of `files` documents when the app's month is used up: pages already at the
 * page limit (pages are only known after processing, so the check is on what was done), or files
 * that would pass the file limit. Throws ApiError(errorId) with limit_name, limit_value and count.
 */
export function checkMonthlyQuota(db: Database.Database, appId: string, files: number, limits: MonthlyLimits, nowMs: number, errorId: QuotaErrorId): void {
  const used = usage(db, appId, monthOf(nowMs));
  if (limits.pageMonthlyLimit > 0 && used.pages >= limits.pageMonthlyLimit) {
    throw new ApiError(errorId, `The monthly page limit of ${limits.pageMonthlyLimit} is reached`, {
      limit_name: 'page_monthly_limit',
      limit_value: limits.pageMonthlyLimit,
      count: used.pages,
    });
  }
  if (limits.fileMonthlyLimit > 0 && used.files + files > limits.fileMonthlyLimit) {
    throw new ApiError(errorId, `The monthly file limit of ${limits.fileMonthlyLimit} would be passed`, {
      limit_name: 'file_monthly_limit',
      limit_value: limits.fileMonthlyLimit,
      count: used.files,
    });
  }
}

/**
 * Checks and counts `files` new documents in one step. Call it inside the transaction that creates
 * them, so two racing submissions cannot both pass the last free slot.
 */
export function chargeFiles(db: Database.Database, appId: string, files: number, limits: MonthlyLimits, nowMs: number, errorId: QuotaErrorId): void {
  checkMonthlyQuota(db, appId, files, limits, nowMs, errorId);
  if (files === 0) return;
  db.prepare(
    'INSERT INTO app_usage_months (app_id, month, files) VALUES (?, ?, ?) ON CONFLICT (app_id, month) DO UPDATE SET files = files + excluded.files',
  ).run(appId, monthOf(nowMs), files);
}

/** Adds a finished document's billable pages to its app's month, once per event id. */
export function chargePages(db: Database.Database, eventId: string, appId: string, pages: number, nowMs: number): void {
  db.transaction(() => {
    const fresh = db
      .prepare('INSERT INTO app_usage_events (event_id, applied_at) VALUES (?, ?) ON CONFLICT DO NOTHING')
      .run(eventId, new Date(nowMs).toISOString());
    if (!fresh.changes || pages <= 0) return;
    db.prepare(
      'INSERT INTO app_usage_months (app_id, month, pages) VALUES (?, ?, ?) ON CONFLICT (app_id, month) DO UPDATE SET pages = pages + excluded.pages',
    ).run(appId, monthOf(nowMs), pages);
  })();
}

/**
 * POST /v3/pdf's side of the shared monthly quota (spec 8): refuses with 429 http_max_requests
 * when the app's month is used up, and counts the document once the submission succeeded (a
 * refused submission creates nothing, so it counts nothing). Mount after requireAppKey.
 */
export function v3MonthlyQuota(ctx: Pick<AppContext, 'db' | 'config' | 'now'>): MiddlewareHandler<AuthEnv> {
  const limits = filesSettings(ctx.config);
  return async (c, next) => {
    const appId = c.get('auth').appId;
    checkMonthlyQuota(ctx.db, appId, 1, limits, ctx.now(), 'http_max_requests');
    await next();
    if (c.res.status === 200) chargeFiles(ctx.db, appId, 1, { pageMonthlyLimit: 0, fileMonthlyLimit: 0 }, ctx.now(), 'http_max_requests');
  };
}

/** Counts one request in a fixed one-minute window; returns the count so far. */
async function countInWindow(ctx: Pick<AppContext, 'redis' | 'config' | 'now'>, who: string): Promise<number> {
  const minute = Math.floor(ctx.now() / 60_000);
  const key = `${ctx.config.FOLIO_QUEUE_PREFIX}:files:rate:${who}:${minute}`;
  const res = await ctx.redis.multi().incr(key).expire(key, 120).exec();
  return Number(res?.[0]?.[1] ?? 0);
}

function refuseRate(limitName: string, limit: number, count: number): ApiError {
  return new ApiError('http_max_requests', `More than ${limit} requests this minute`, { limit_name: limitName, limit_value: limit, count });
}

/** Per-minute request limit per client address (spec 8), before credentials are looked at. */
export function perIpRateLimit(ctx: Pick<AppContext, 'redis' | 'config' | 'now'>): MiddlewareHandler {
  const limit = filesSettings(ctx.config).requestsPerMinutePerIp;
  return async (c, next) => {
    if (limit > 0) {
      let ip = 'unknown';
      try {
        ip = getConnInfo(c).remote.address ?? 'unknown';
      } catch {
        // in-process requests (app.request) have no socket
      }
      const count = await countInWindow(ctx, `ip:${ip}`);
      if (count > limit) throw refuseRate('requests_per_minute_per_ip', limit, count);
    }
    await next();
  };
}

/** Per-minute request limit per app key (spec 8). Mount after requireAppKey. */
export function perKeyRateLimit(ctx: Pick<AppContext, 'redis' | 'config' | 'now'>): MiddlewareHandler<AuthEnv> {
  const limit = filesSettings(ctx.config).requestsPerMinutePerKey;
  return async (c, next) => {
    if (limit > 0) {
      const count = await countInWindow(ctx, `key:${c.get('auth').keyId}`);
      if (count > limit) throw refuseRate('requests_per_minute_per_key', limit, count);
    }
    await next();
  };
}
