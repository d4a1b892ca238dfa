import { FILE_STATUSES } from '../../../core/pco/job-spec.js';
import type { FileRecord, JobRecord } from '../../../core/pco/store.js';
import { OCR_VERSION, PDF_VERSION } from '../../../core/versions.js';

/** The job object of spec 2.13; `spec` is left out of list entries. */
export function jobView(job: JobRecord, opts: { publicUrl: string; now: number; withSpec?: boolean }) {
  const c = job.counts;
  const discovered = FILE_STATUSES.reduce((n, s) => n + c[s], 0);
  const pagesDone = job.pages_completed + job.pages_failed;
  const minutes = job.started_at ? ((job.finished_at ? Date.parse(job.finished_at) : opts.now) - Date.parse(job.started_at)) / 60_000 : 0;
  const throughput = minutes > 0 && pagesDone > 0 ? round(pagesDone / minutes) : 0;
  const filesDone = c.completed + c.failed;
  const remaining = c.queued + c.processing;
  const eta = job.finished_at ? 0 : throughput > 0 && filesDone > 0 ? Math.round(((remaining * (pagesDone / filesDone)) / throughput) * 60) : null;
  return {
    job_id: job.jobId,
    name: job.spec.name,
    // 3.8: cancel moves the job to cancelled at once; in-flight files still finish (finished_at null until then).
    status: job.cancelled ? 'cancelled' : job.settling ? 'processing' : job.status,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.settling ? null : job.finished_at,
    enumeration: { status: job.enum_status, files_listed: job.files_listed, files_excluded: job.files_excluded },
    files: { discovered, queued: c.queued, processing: c.processing, completed: c.completed, failed: c.failed, skipped: c.skipped },
    pages: { completed: job.pages_completed, failed: job.pages_failed },
    throughput_pages_per_minute: throughput,
    eta_seconds: eta,
    output: {
      folder: job.spec.output.folder,
      layout: job.spec.output.layout,
      manifest_uri: job.settling ? null : job.manifest_uri,
      report_uri: `${opts.publicUrl}/pco/v1/jobs/${job.jobId}/report`,
    },
    versions: { ocr_version: OCR_VERSION, pdf_version: PDF_VERSION },
    client_reference: job.spec.client_reference,
    ...(job.error_info ? { error_info: job.error_info } : {}),
    ...(opts.withSpec ? { spec: publicSpec(job.spec) } : {}),
  };
}

/** The file object of spec 2.13; `detail` adds page_errors, conversion_status and versions. */
export function fileView(f: FileRecord, detail = false) {
  return {
    document_id: f.document_id,
    key: f.key,
    status: f.status,
    pages: f.pages,
    pages_failed: f.pages_failed,
    attempts: f.attempts,
    error_id: f.error_id,
    error_message: f.error_message,
    outputs: f.outputs,
    started_at: f.started_at,
    finished_at: f.finished_at,
    ...(detail ? { page_errors: f.page_errors, conversion_status: f.conversion_status, versions: { ocr_version: OCR_VERSION, pdf_version: PDF_VERSION } } : {}),
  };
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The job's spec as shown back: callback header values often carry credentials, so only names. */
function publicSpec(spec: JobRecord['spec']) {
  if (!spec.callback) return spec;
  // create-body.ts refuses this value when the echo is posted back.
  const headers = Object.fromEntries(Object.keys(spec.callback.headers).map((k) => [k, '[redacted]']));
  return { ...spec, callback: { ...spec.callback, headers } };
}
