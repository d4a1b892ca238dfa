import { ApiError } from '../../../core/errors.js';
import type { ConversionRecord } from '../../../core/v3/conversion-store.js';
import { V3_ID } from '../../../core/v3/keys.js';
import type { PdfRecord } from '../../../core/v3/pdf-store.js';
import { PDF_VERSION } from '../../../core/versions.js';
import type { AppAuth } from '../../auth/middleware.js';

/**
 * percent_done counts every page that went through (failed ones too), so it reaches 100 when
 * processing ends; num_pages_completed counts the pages that succeeded.
 */
export function percentDone(rec: PdfRecord): number {
  if (rec.status === 'completed') return 100;
  if (!rec.num_pages) return 0;
  return Math.min(100, Math.round((1000 * (rec.num_pages_completed + rec.num_pages_failed)) / rec.num_pages) / 10);
}

/** GET /v3/pdf/{pdf_id} (spec 2.5). page_errors is ours: the pages of a completed document that failed. */
export function pdfStatusView(rec: PdfRecord) {
  return {
    status: rec.status,
    version: PDF_VERSION,
    input_file: rec.input_file,
    num_pages: rec.num_pages,
    num_pages_pdf: rec.num_pages_pdf,
    num_pages_completed: rec.num_pages_completed,
    percent_done: percentDone(rec),
    ...(rec.status === 'error' && rec.error_info ? { error: rec.error_info.id, error_info: rec.error_info } : {}),
    ...(rec.page_errors.length ? { page_errors: rec.page_errors } : {}),
  };
}

/** One element of GET /v3/pdf-results (spec 2.4). */
export function pdfRecordView(rec: PdfRecord) {
  return {
    id: rec.pdf_id,
    input_file: rec.input_file,
    status: rec.status,
    created_at: rec.created_at,
    modified_at: rec.modified_at,
    num_pages: rec.num_pages,
    num_pages_completed: rec.num_pages_completed,
    request_args: rec.request_args,
  };
}

/**
 * The 2.6 status object, for a conversion or for the formats requested on a document. status is
 * always completed (the MMD is accepted synchronously, spec 2.6); the formats carry the progress.
 */
export function conversionView(rec: Pick<ConversionRecord, 'conversion_status'>) {
  return { status: 'completed', version: PDF_VERSION, conversion_status: rec.conversion_status };
}

/** `<id>` or `<id>.<ext>` of a path segment; anything that is not an id of ours is not found. */
export function splitName(name: string): { id: string; ext: string | null } {
  const dot = name.indexOf('.');
  const id = dot < 0 ? name : name.slice(0, dot);
  return { id, ext: dot < 0 ? null : name.slice(dot + 1) };
}

export const isV3Id = (id: string) => V3_ID.test(id);

/**
 * Records are shared within a group, as data sources are (spec 2.11); another group's record
 * answers 403 forbidden (spec 7.2).
 */
export function checkOwner<T extends { group_id: string }>(rec: T | null, auth: AppAuth, what: string): T {
  if (!rec) throw new ApiError('not_found', `No ${what}`);
  if (rec.group_id !== auth.groupId) throw new ApiError('forbidden', `The ${what} belongs to another group`);
  return rec;
}
