import { randomBytes } from 'node:crypto';

/** Redis keys of /v3/pdf and /v3/converter records (one deployment prefix). */
export const v3Keys = (prefix: string) => ({
  pdf: (pdfId: string) => `${prefix}:v3:pdf:${pdfId}`,
  /** Page results of a streaming document, in page order (GET /v3/pdf/{id}/stream). */
  pdfPages: (pdfId: string) => `${prefix}:v3:pdf:${pdfId}:pages`,
  /** Sorted set of an app's pdf ids scored by creation time (GET /v3/pdf-results). */
  appPdfs: (appId: string) => `${prefix}:v3:app:${appId}:pdfs`,
  conversion: (conversionId: string) => `${prefix}:v3:cnv:${conversionId}`,
  /** Sorted set of an app's conversion ids scored by creation time (GET /v3/converter-results). */
  appConversions: (appId: string) => `${prefix}:v3:app:${appId}:conversions`,
});

/** v3/pdf-results records and MMD/line outputs live up to 90 days (spec 8). */
export const PDF_RETENTION_SECONDS = 90 * 86_400;
/** v3/converter status is kept up to 90 days (spec 8). */
export const CONVERSION_RETENTION_SECONDS = 90 * 86_400;

/** Storage folder (in Folio's own store) of one document's source and outputs. */
export const pdfFolder = (pdfId: string) => `v3/pdf/${pdfId}/`;
/** Storage folder of one conversion's MMD and outputs. */
export const conversionFolder = (conversionId: string) => `v3/converter/${conversionId}/`;

/** Ids shaped like the hosted service's: the UTC day, then 20 random hex digits. */
export function newV3Id(nowMs: number): string {
  return `${new Date(nowMs).toISOString().slice(0, 10).replaceAll('-', '_')}_${randomBytes(10).toString('hex')}`;
}

/** What a pdf_id or conversion_id looks like; anything else is never a key. */
export const V3_ID = /^\d{4}_\d{2}_\d{2}_[0-9a-f]{20}$/;

/** Largest document POST /v3/pdf takes, uploaded or fetched (spec 8). */
export const MAX_DOCUMENT_BYTES = 1024 ** 3;
/** A document URL must be fetched within this (spec 7.2 pdf_download_error). */
export const DOWNLOAD_TIMEOUT_MS = 60_000;
