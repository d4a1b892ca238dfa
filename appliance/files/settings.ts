import type { Config } from '../../core/config.js';

/** Files API settings, from the variables core/config.ts parses (defaults there). */
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

export function filesSettings(config: Config): FilesSettings {
  const c = config;
  return {
    jobCompletedDelayMs: c.FOLIO_FILES_JOB_COMPLETED_DELAY_SECONDS * 1000,
    pageMonthlyLimit: c.FOLIO_PAGE_MONTHLY_LIMIT,
    fileMonthlyLimit: c.FOLIO_FILE_MONTHLY_LIMIT,
    requestsPerMinutePerKey: c.FOLIO_FILES_REQUESTS_PER_MINUTE_PER_KEY,
    requestsPerMinutePerIp: c.FOLIO_FILES_REQUESTS_PER_MINUTE_PER_IP,
    dispatchWindow: c.FOLIO_FILES_DISPATCH_WINDOW,
  };
}
