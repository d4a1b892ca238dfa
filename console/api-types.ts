// Type-only views of the appliance's answers: the CLI stays a plain HTTP client at run time, but
// `tsc` fails here when a route's body changes shape under it.
import type { UsageReport } from '../appliance/metering/ledger.js';
import type { LicenseRecord } from '../license/state.js';
import type { dryRun } from '../appliance/orchestrator/dry-run.js';
import type { fileView, jobView } from '../appliance/http/pco/views.js';

/** The job object of spec 2.13 (GET /pco/v1/jobs/{id}; list entries leave out `spec`). */
export type Job = ReturnType<typeof jobView>;
/** The file object of spec 2.13; the single-file view adds page_errors, conversion_status and versions. */
export type JobFile = ReturnType<typeof fileView>;
export type DryRun = Awaited<ReturnType<typeof dryRun>>;
export type Usage = UsageReport;

export interface JobPage {
  jobs: Job[];
  next_cursor: string | null;
}

export interface FilePage {
  files: JobFile[];
  next_cursor: string | null;
}

/** GET /pco/v1/license; `unknown` (counters null) while the state store does not answer. */
export type License = Omit<LicenseRecord, 'status' | 'consecutive_failures'> & {
  status: LicenseRecord['status'] | 'unknown';
  consecutive_failures: number | null;
};

/** GET /health (spec 4.14); answered with 503 when degraded. */
export interface Health {
  status: 'ok' | 'degraded';
  redis_connected: boolean;
  storage_connected: boolean;
  gpu_workers_alive: number;
  gpu_workers_expected: number;
  document_workers_alive: number;
  document_workers_expected: number;
  text_requests_in_flight: number;
  text_requests_max: number;
  license: { status: string; last_verified_at: string | null };
}

/** GET /pco/v1/status (spec 4.14). */
export interface Status {
  ocr_version: string;
  pdf_version: string;
  api_version: number;
  build_id: string;
  customer: string;
  license_mode: string;
  metering_mode: string;
  deployment_id: string;
  uptime_seconds: number;
  queue_depths: { documents: number; pages: number; jobs: number };
  workers: { gpu_alive: number; gpu_expected: number; document_alive: number; document_expected: number; batch_job_expected: number };
  text_requests: { in_flight: number; max: number };
  redis_connected: boolean;
  storage_connected: boolean;
  license: { status: string; last_verified_at: string | null };
  metering: { mode: string; last_report_at: string | null; last_attempt_at: string | null; last_report_error: string | null; days_pending: number | null };
}
