import type Database from 'better-sqlite3';
import type { Logger } from '../../core/logging.js';
import { kvSet } from '../db.js';
import { USAGE_FIELDS, type UsageDay } from './ledger.js';

/**
 * Usage report protocol (metered mode only):
 *
 *   POST <FOLIO_METERING_URL>/v1/usage
 *   authorization: Bearer <FOLIO_LICENSE_KEY>      (when a key is configured)
 *   {"statement_version": 1, "deployment_id", "customer", "build_id", "sent_at", "days": [day rows]}
 *
 * Each day row carries the day's cumulative totals (the same row as GET /pco/v1/usage), never
 * deltas: the server upserts by (deployment_id, day), so a report repeated after a lost answer
 * is harmless. Any 2xx marks the rows reported. A report is sent even with no pending days, so
 * the vendor can tell a quiet deployment from a silent one.
 */
export const REPORT_PATH = 'v1/usage';
/** Spec 4.14: a metered deployment reports every 15 minutes. */
export const REPORT_INTERVAL_MS = 15 * 60_000;
export const REPORT_TIMEOUT_MS = 30_000;
/** Oldest pending days first, at most this many per report; the rest go in the next one. */
export const MAX_DAYS_PER_REPORT = 400;
export const STATEMENT_VERSION = 1;

export interface UsageReporterOptions {
  db: Database.Database;
  mode: 'metered' | 'offline';
  /** FOLIO_METERING_URL: operator configuration, never user input, so no SSRF guard applies. */
  url: string | undefined;
  deploymentId: string;
  customer?: string;
  buildId?: string;
  /** FOLIO_LICENSE_KEY, sent as a bearer token. */
  licenseKey?: string;
  /** @default REPORT_INTERVAL_MS */
  intervalMs?: number;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** @default Date.now */
  now?: () => number;
  logger?: Logger;
}

export interface ReportOutcome {
  sent: boolean;
  days: number;
  error: string | null;
}

/** Sends unreported day rows to the metering server; offline mode sends nothing, ever. */
export class UsageReporter {
  private readonly fetch: typeof fetch;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<ReportOutcome> | undefined;
  private stopped = true;

  constructor(private readonly opts: UsageReporterOptions) {
    this.fetch = opts.fetch ?? globalThis.fetch;
    this.now = opts.now ?? Date.now;
  }

  start(): void {
    if (this.opts.mode !== 'metered') return;
    this.stopped = false;
    void this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.inFlight?.catch(() => undefined);
  }

  reportOnce(): Promise<ReportOutcome> {
    if (this.opts.mode !== 'metered') return Promise.resolve({ sent: false, days: 0, error: null });
    this.inFlight ??= this.report().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async tick(): Promise<void> {
    try {
      await this.reportOnce();
    } catch (err) {
      this.opts.logger?.warn({ err: (err as Error).message }, 'usage report could not be recorded');
    }
    if (!this.stopped) this.timer = setTimeout(() => void this.tick(), this.opts.intervalMs ?? REPORT_INTERVAL_MS).unref();
  }

  private async report(): Promise<ReportOutcome> {
    const { db, url, licenseKey } = this.opts;
    const attemptAt = new Date(this.now()).toISOString();
    kvSet(db, 'metering.last_attempt_at', attemptAt);
    const rows = db
      .prepare(`SELECT day, ${USAGE_FIELDS.join(', ')} FROM usage_days WHERE reported_at IS NULL ORDER BY day LIMIT ?`)
      .all(MAX_DAYS_PER_REPORT) as UsageDay[];
    const fail = (error: string): ReportOutcome => {
      kvSet(db, 'metering.last_report_error', error);
      this.opts.logger?.warn({ error, days_pending: rows.length }, 'usage report failed');
      return { sent: false, days: 0, error };
    };
    if (!url) return fail('unreachable:FOLIO_METERING_URL is not set');
    let res: Response;
    try {
      res = await this.fetch(new URL(REPORT_PATH, url.endsWith('/') ? url : `${url}/`), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(licenseKey ? { authorization: `Bearer ${licenseKey}` } : {}) },
        body: JSON.stringify({
          statement_version: STATEMENT_VERSION,
          deployment_id: this.opts.deploymentId,
          customer: this.opts.customer ?? null,
          build_id: this.opts.buildId ?? 'dev',
          sent_at: attemptAt,
          days: rows,
        }),
        redirect: 'error',
        signal: AbortSignal.timeout(REPORT_TIMEOUT_MS),
      });
      await res.body?.cancel();
    } catch (err) {
      const e = err as { name?: string; message?: string; cause?: { code?: string } };
      return fail(`unreachable:${e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? e.message ?? 'network_error')}`);
    }
    if (!res.ok) return fail(res.status === 401 || res.status === 403 ? 'unauthorized' : `rejected:http_${res.status}`);
    const doneAt = new Date(this.now()).toISOString();
    // A row that gained usage while the report was in flight no longer matches what was sent and
    // stays pending (applyUsageEvent also clears reported_at); counters only grow, so equal
    // counters mean an unchanged row.
    const mark = db.prepare(
      `UPDATE usage_days SET reported_at = ? WHERE day = ? AND reported_at IS NULL AND ${USAGE_FIELDS.map((f) => `${f} = ?`).join(' AND ')}`,
    );
    db.transaction(() => {
      for (const r of rows) mark.run(doneAt, r.day, ...USAGE_FIELDS.map((f) => r[f]));
      kvSet(db, 'metering.last_report_at', doneAt);
      db.prepare('DELETE FROM kv WHERE key = ?').run('metering.last_report_error');
    })();
    return { sent: true, days: rows.length, error: null };
  }
}
