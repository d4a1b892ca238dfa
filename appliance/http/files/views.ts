import { ApiError } from '../../../core/errors.js';
import type { FormatStatus, PdfRecord, PdfStore } from '../../../core/v3/pdf-store.js';
import type { AppAuth } from '../../auth/middleware.js';
import type { FileRow, FileStatus } from '../../files/ledger.js';
import type { JobRow } from '../../files/jobs-ledger.js';
import { percentDone } from '../v3/views.js';

const settled = (row: FileRow) => row.status === 'completed' || row.status === 'error' || row.status === 'deleted';

/**
 * A file's status (spec 3.1) from its ledger row and, while it runs, its document record: pending
 * until the page split, split from then until the file settles. A document that has finished but
 * whose outputs are still going to the destination stays split at 100 percent (spec 2.8: percent
 * reaches 100 before results are downloadable).
 */
export function liveStatus(row: FileRow, rec: Pick<PdfRecord, 'status'> | null): FileStatus {
  if (settled(row) || !rec) return row.status;
  return rec.status === 'received' || rec.status === 'loaded' ? 'pending' : 'split';
}

/** The conversion formats that have started (spec 2.8: a format is absent until its conversion starts). */
function startedFormats(formats: Record<string, FormatStatus>): Record<string, { status: string }> {
  return Object.fromEntries(Object.entries(formats).filter(([, s]) => s.status !== 'received').map(([ext, s]) => [ext, { status: s.status }]));
}

export function rowFormats(row: FileRow): Record<string, FormatStatus> {
  return row.formats ? (JSON.parse(row.formats) as Record<string, FormatStatus>) : {};
}

/** GET /files/v1/{file_id} (spec 2.8). job_id, created_at and modified_at are ours. */
export function fileView(row: FileRow, rec: PdfRecord | null) {
  const status = liveStatus(row, rec);
  const live = !settled(row) && rec;
  const numPages = live ? rec.num_pages : row.num_pages;
  const numCompleted = live ? rec.num_pages_completed : row.num_pages_completed;
  const percent = row.status === 'completed' ? 100 : live ? percentDone(rec) : numPages ? Math.round((1000 * numCompleted) / numPages) / 10 : 0;
  return {
    file_id: row.file_id,
    status,
    percent_done: percent,
    num_pages: numPages,
    num_pages_completed: numCompleted,
    formats: startedFormats(live ? rec.conversion_status : rowFormats(row)),
    format_primary: 'mmd',
    filename: row.filename,
    custom_id: row.custom_id,
    job_id: row.job_id,
    destination_uri: row.destination_uri,
    destination_basename: row.destination_basename,
    created_at: row.created_at,
    modified_at: row.modified_at,
    ...(row.status === 'error' ? { error: row.error, error_info: { id: row.error, message: row.error_message } } : {}),
  };
}

/** A file entry of a job listing (spec 2.9). */
export const fileEntry = (row: FileRow, status: FileStatus) => ({ file_id: row.file_id, filename: row.filename, status, custom_id: row.custom_id });

/** GET /files/v1/jobs/{job_id} (spec 2.9); num_pages_sent and num_pages_completed as in job.completed. */
export function jobView(job: JobRow) {
  return {
    job_id: job.job_id, status: job.status, file_count: job.file_count, files_completed: job.files_completed,
    files_errored: job.files_errored, num_pages_sent: job.num_pages_sent, num_pages_completed: job.num_pages_completed,
    created_at: job.created_at, modified_at: job.modified_at,
  };
}

/** Files and jobs are shared within a group (spec 2.11); another group's answers 403 forbidden. */
export function checkGroup<T extends { group_id: string }>(row: T | undefined, auth: AppAuth, what: string): T {
  if (!row) throw new ApiError('not_found', `No ${what}`);
  if (row.group_id !== auth.groupId) throw new ApiError('forbidden', `The ${what} belongs to another group`);
  return row;
}

/** Default and largest page_size of the listings. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/** page_size and page_token of a listing; the token is an opaque cursor (a row position). */
export function parsePaging(q: { page_size?: string; page_token?: string }): { size: number; cursor: number | null } {
  let size = DEFAULT_PAGE_SIZE;
  if (q.page_size !== undefined) {
    size = Number(q.page_size);
    if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) throw new ApiError('bad_request', `page_size must be an integer from 1 to ${MAX_PAGE_SIZE}`, { field: 'page_size' });
  }
  if (q.page_token === undefined || q.page_token === '') return { size, cursor: null };
  const cursor = Number(Buffer.from(q.page_token, 'base64url').toString('utf8').replace(/^r/, ''));
  if (!/^[A-Za-z0-9_-]+$/.test(q.page_token) || !Number.isSafeInteger(cursor) || cursor < 0) throw new ApiError('bad_request', 'page_token is not one this service issued', { field: 'page_token' });
  return { size, cursor };
}

/** Splits rows fetched with limit size + 1 into the page and the token of the next one (null after the last). */
export function pageOf<T extends { rowid: number }>(rows: T[], size: number): { page: T[]; next: string | null } {
  if (rows.length <= size) return { page: rows, next: null };
  const page = rows.slice(0, size);
  return { page, next: Buffer.from(`r${page[size - 1]!.rowid}`).toString('base64url') };
}

/** Live statuses of a page of ledger rows: one Redis read for each file still running. */
export async function liveStatusOf(pdfs: PdfStore, rows: FileRow[]): Promise<FileStatus[]> {
  const running = rows.map((r) => r.status === 'pending' && r.dispatched === 1);
  if (!running.some(Boolean)) return rows.map((r) => r.status);
  const pipeline = pdfs.redis.pipeline();
  rows.forEach((r, i) => running[i] && pipeline.hget(pdfs.keys.pdf(r.file_id), 'status'));
  const answers = ((await pipeline.exec()) ?? []).map(([, v]) => v as string | null);
  let next = 0;
  return rows.map((r, i) => {
    if (!running[i]) return r.status;
    const s = answers[next++];
    return liveStatus(r, s ? { status: s as PdfRecord['status'] } : null);
  });
}
