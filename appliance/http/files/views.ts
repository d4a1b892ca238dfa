import { ApiError } from '../../../core/errors.js';
import type { FormatStatus, PdfRecord, PdfStore } from '../../../core/v3/pdf-store.js';
import type { AppAuth } from '../../auth/middleware.js';
import type { FileRow, FileStatus } from '../../files/ledger.js';
import type { JobRow } from '../../files/jobs-ledger.js';
import { dateBound } from '../v3/result-query.js';
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

/**
 * The conversion formats that have started, each mapped to its status string (spec 2.8: a format
 * is absent until its conversion starts; clients compare the value with "completed").
 */
function startedFormats(formats: Record<string, FormatStatus>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(formats)
      .filter(([, s]) => s.status !== 'received')
      .map(([ext, s]) => [ext, s.status]),
  );
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

/**
 * GET /files/v1/jobs/{job_id} (spec 2.9); num_pages_sent and num_pages_completed as in job.completed.
 * status follows the files: completed once every file settled (completed or error), processing
 * before. Finalization (3.3) is its own field: it gates job.completed and further submissions, not
 * the status that polling reads, since a job need never be finalized.
 */
export function jobView(job: JobRow) {
  const settled = job.files_completed + job.files_errored >= job.file_count;
  return {
    job_id: job.job_id,
    status: settled ? 'completed' : 'processing',
    finalized: job.status !== 'open',
    file_count: job.file_count,
    files_completed: job.files_completed,
    files_errored: job.files_errored,
    num_pages_sent: job.num_pages_sent,
    num_pages_completed: job.num_pages_completed,
    created_at: job.created_at,
    modified_at: job.modified_at,
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

/**
 * page_size and page_token of a listing, or the names the hosted service's clients send, limit and
 * paging_state (one of each pair); the token is an opaque cursor (a row position).
 */
export function parsePaging(q: Record<string, string | undefined>): { size: number; cursor: number | null } {
  const sizeField = q.page_size !== undefined ? 'page_size' : 'limit';
  const tokenField = q.page_token !== undefined ? 'page_token' : 'paging_state';
  for (const [a, b] of [
    ['page_size', 'limit'],
    ['page_token', 'paging_state'],
  ]) {
    if (q[a!] !== undefined && q[b!] !== undefined) throw new ApiError('bad_request', `Give ${a} or ${b}, not both`, { field: b });
  }
  let size = DEFAULT_PAGE_SIZE;
  const sizeValue = q[sizeField];
  if (sizeValue !== undefined) {
    size = Number(sizeValue);
    if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE)
      throw new ApiError('bad_request', `${sizeField} must be an integer from 1 to ${MAX_PAGE_SIZE}`, { field: sizeField });
  }
  const token = q[tokenField];
  if (token === undefined || token === '') return { size, cursor: null };
  const cursor = Number(Buffer.from(token, 'base64url').toString('utf8').replace(/^r/, ''));
  if (!/^[A-Za-z0-9_-]+$/.test(token) || !Number.isSafeInteger(cursor) || cursor < 0)
    throw new ApiError('bad_request', `${tokenField} is not one this service issued`, { field: tokenField });
  return { size, cursor };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The creation-time window of a job listing as ISO bounds [from, to): from_date (included) and
 * to_date (excluded) as ISO dates or times, or the clients' start and end, whole UTC days
 * (yyyy-MM-dd, both included; one alone is that single day).
 */
export function createdWindow(q: Record<string, string | undefined>): { from?: string; to?: string } {
  if ((q.start !== undefined || q.end !== undefined) && (q.from_date !== undefined || q.to_date !== undefined)) {
    throw new ApiError('bad_request', 'Give from_date/to_date or start/end, not both', { field: 'start' });
  }
  if (q.start === undefined && q.end === undefined) {
    const from = q.from_date === undefined ? undefined : new Date(dateBound(q.from_date, 'from_date', false)).toISOString();
    const to = q.to_date === undefined ? undefined : new Date(dateBound(q.to_date, 'to_date', true)).toISOString();
    return { from, to };
  }
  for (const field of ['start', 'end'] as const) {
    const v = q[field];
    if (v !== undefined && (!DAY.test(v) || Number.isNaN(Date.parse(v)))) throw new ApiError('bad_request', `${field} must be a date yyyy-MM-dd`, { field });
  }
  const first = q.start ?? q.end!;
  const last = q.end ?? q.start!;
  return { from: new Date(Date.parse(first)).toISOString(), to: new Date(Date.parse(last) + 86_400_000).toISOString() };
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
