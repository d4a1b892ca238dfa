import type { AppContext } from '../context.js';
import { kvGet } from '../db.js';

export interface UsageReportState {
  last_report_at: string | null;
  last_attempt_at: string | null;
  last_report_error: string | null;
  days_pending: number;
}

/** Where usage reporting stands: read from the ledger, never from memory, so restarts keep it. */
export function readUsageReportState(ctx: Pick<AppContext, 'db'>): UsageReportState {
  const pending = ctx.db.prepare('SELECT COUNT(*) AS n FROM usage_days WHERE reported_at IS NULL').get() as { n: number };
  return {
    last_report_at: kvGet(ctx.db, 'metering.last_report_at'),
    last_attempt_at: kvGet(ctx.db, 'metering.last_attempt_at'),
    last_report_error: kvGet(ctx.db, 'metering.last_report_error'),
    days_pending: pending.n,
  };
}
