import type { Job, JobFile } from '../api-types.js';
import { duration, keyValues, table, when } from '../table.js';

/** Files that reached an end state: completed, failed or skipped. */
export const filesDone = (f: Job['files']) => f.completed + f.failed + f.skipped;

/** The human form of a job object (spec 2.13). */
export function jobSummary(job: Job): string {
  const f = job.files;
  const lines = keyValues([
    ['job', job.name ? `${job.job_id} (${job.name})` : job.job_id],
    ['status', job.status],
    ['created', when(job.created_at)],
    ['started', when(job.started_at)],
    ['finished', when(job.finished_at)],
    ['enumeration', `${job.enumeration.status}: ${job.enumeration.files_listed} listed, ${job.enumeration.files_excluded} excluded`],
    ['files', `${f.discovered} discovered: ${f.queued} queued, ${f.processing} processing, ${f.completed} completed, ${f.failed} failed, ${f.skipped} skipped`],
    ['pages', `${job.pages.completed} completed, ${job.pages.failed} failed`],
    ['throughput', `${job.throughput_pages_per_minute} pages/min`],
    ['eta', duration(job.eta_seconds)],
    ['output', `${job.output.folder} (${job.output.layout})`],
    ['manifest', job.output.manifest_uri],
    ['report', job.output.report_uri],
    ['versions', `ocr ${job.versions.ocr_version}, pdf ${job.versions.pdf_version}`],
    ['reference', job.client_reference],
    ...(job.error_info ? [['error', `${job.error_info.id}: ${job.error_info.message}`] as [string, unknown]] : []),
  ]);
  return f.failed > 0 ? `${lines}\nfailed files: folio jobs files ${job.job_id} --status failed` : lines;
}

/** The human form of one file, with its outputs, conversions and page errors. */
export function fileSummary(f: JobFile): string {
  const out = keyValues([
    ['document', f.document_id],
    ['key', f.key],
    ['status', f.status],
    ['pages', `${f.pages ?? '-'} (${f.pages_failed ?? 0} failed)`],
    ['attempts', f.attempts],
    ['error', f.error_id ? `${f.error_id}: ${f.error_message ?? ''}` : null],
    ['started', when(f.started_at)],
    ['finished', when(f.finished_at)],
    ['versions', f.versions ? `ocr ${f.versions.ocr_version}, pdf ${f.versions.pdf_version}` : null],
  ]);
  const outputs = Object.entries(f.outputs ?? {}).map(([ext, uri]) => [ext, uri] as [string, unknown]);
  const formats = Object.entries(f.conversion_status ?? {}).map(
    ([fmt, st]) => [fmt, st.error_id ? `${st.status} (${st.error_id})` : st.status] as [string, unknown],
  );
  const pageErrors = f.page_errors ?? [];
  return [
    out,
    outputs.length ? `\noutputs\n${keyValues(outputs)}` : '',
    formats.length ? `\nconversions\n${keyValues(formats)}` : '',
    pageErrors.length
      ? `\npage errors\n${table(pageErrors, [
          { header: 'PAGE', value: (e) => e.page, align: 'right' },
          { header: 'ERROR', value: (e) => `${e.error_id}: ${e.error_message}` },
        ])}`
      : '',
  ].join('');
}
