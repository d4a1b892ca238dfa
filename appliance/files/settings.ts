import type { Config } from '../../core/config.js';

/**
 * Files API settings. They belong in core/config.ts's schema (one line each, see docs/files-api.md);
 * until a variable is there, ctx.config lacks it and the default below applies.
 */
export interface FilesSettings {
  /** Delay between a finalized job's last document settling and job.completed (spec 6.1: one to two minutes). */
  jobCompletedDelayMs: number;
  /** Pages per app per UTC month, shared with /v3/pdf; 0 = unlimited. */
  pageMonthlyLimit: number;
  /** Documents per app per UTC month, shared with /v3/pdf; 0 = unlimited. */
  fileMonthlyLimit: number;
  /** Files API requests per minute per app key; 0 = unlimited. */
  requestsPerMinutePerKey: number;
  /** Files API requests per minute per client address; 0 = unlimited. */
  requestsPerMinutePerIp: number;
  /** Files handed to the document queue and not yet settled, across all jobs. */
  dispatchWindow: number;
}

/** The optional variables as core/config.ts will parse them (numbers after z.coerce). */
type FilesConfig = Partial<{
  FOLIO_FILES_JOB_COMPLETED_DELAY_SECONDS: number;
  FOLIO_PAGE_MONTHLY_LIMIT: number;
  FOLIO_FILE_MONTHLY_LIMIT: number;
  FOLIO_FILES_REQUESTS_PER_MINUTE_PER_KEY: number;
  FOLIO_FILES_REQUESTS_PER_MINUTE_PER_IP: number;
  FOLIO_FILES_DISPATCH_WINDOW: number;
}>;

export function filesSettings(config: Config): FilesSettings {
  const c = config as Config & FilesConfig;
  return {
    jobCompletedDelayMs: (c.FOLIO_FILES_JOB_COMPLETED_DELAY_SECONDS ?? 90) * 1000,
    pageMonthlyLimit: c.FOLIO_PAGE_MONTHLY_LIMIT ?? 0,
    fileMonthlyLimit: c.FOLIO_FILE_MONTHLY_LIMIT ?? 0,
    requestsPerMinutePerKey: c.FOLIO_FILES_REQUESTS_PER_MINUTE_PER_KEY ?? 600,
    requestsPerMinutePerIp: c.FOLIO_FILES_REQUESTS_PER_MINUTE_PER_IP ?? 1200,
    dispatchWindow: c.FOLIO_FILES_DISPATCH_WINDOW ?? 64,
  };
}
