import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

/**
 * The image endpoints' history (spec 2.3, 4.6, part 8), kept in SQLite:
 * - ocr_requests: one row per image request, whatever the improve flag says (billing and audit
 *   metadata is always retained). GET /v3/ocr-usage aggregates it.
 * - ocr_results: request arguments and the response body, only when the request's improve flag
 *   is not false; GET /v3/ocr-results reads it. Rows older than 30 days are swept. The pages of a
 *   /v3/pdf document are results too (the hosted service lists them), one row per page with its
 *   pdf_id; they are not image requests, so they have no ocr_requests row.
 */

export const OCR_RESULTS_RETENTION_MS = 30 * 86_400_000;

export interface OcrRequestRecord {
  requestId: string;
  appId: string;
  groupId: string;
  /** The path used, e.g. '/v3/text'. */
  endpoint: string;
  /** The ocr-usage type: 'image', 'image-async', 'strokes'. */
  usageType: string;
  requestArgs: Record<string, unknown>;
  createdMs: number;
  durationMs: number;
  /** The response body; kept only when `improve` is true. */
  result: Record<string, unknown>;
  improve: boolean;
}

/** A request opts out of storage with metadata.improve_<service> = false (any service name). */
export function improveFlag(metadata: unknown): boolean {
  if (!metadata || typeof metadata !== 'object') return true;
  return !Object.entries(metadata).some(([k, v]) => k.startsWith('improve_') && v === false);
}

/** What GET /v3/ocr-results can filter on (4.6); dates are ms, `to` excluded. */
export interface ResultFilters {
  fromMs: number;
  toMs: number;
  appId?: string;
  requestId?: string;
  /** The pages of one /v3/pdf document. */
  pdfId?: string;
  /** Also results that are errors (no recognised content). */
  includeNull: boolean;
  text?: string;
  textDisplay?: string;
  latexStyled?: string;
  tags: string[];
  detections: Partial<Record<Detection, boolean>>;
}

export const DETECTIONS = [
  'is_printed',
  'is_handwritten',
  'contains_table',
  'contains_chemistry',
  'contains_diagram',
  'contains_triangle',
  'contains_algorithm',
] as const;
export type Detection = (typeof DETECTIONS)[number];

export const USAGE_GROUPS = ['usage_type', 'request_args_hash', 'app_id'] as const;
export const USAGE_TIMESPANS = ['hour', 'day', 'week', 'month'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];
export type UsageTimespan = (typeof USAGE_TIMESPANS)[number];

export interface UsageRecord {
  from_date: string;
  app_id: string;
  group_id: string;
  usage_type: string;
  request_args_hash: string;
  count: number;
}

/** sha1 of the request arguments with sorted keys, so equal arguments hash equally. */
export function requestArgsHash(args: Record<string, unknown>): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return createHash('sha1')
    .update(JSON.stringify(canonical(args)))
    .digest('hex');
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** Detections derived from the answer itself: Folio reports only what its engine observed. */
function detectionsOf(result: Record<string, unknown>): Record<Detection, boolean> {
  const text = `${str(result.text) ?? ''}${str(result.latex_styled) ?? ''}`;
  return {
    is_printed: result.is_printed === true,
    is_handwritten: result.is_handwritten === true,
    contains_table: /\\begin\{tabular\}/.test(text),
    contains_chemistry: /<smiles[\s>]/.test(text),
    contains_diagram: false,
    contains_triangle: false,
    contains_algorithm: /\\begin\{algorithm\}/.test(text),
  };
}

/** One page of a /v3/pdf document as an image result; `imageId` is `<pdf_id>-<page>`. */
export type PdfPageRecord = Omit<OcrRequestRecord, 'requestId' | 'usageType'> & { imageId: string; pdfId: string };

export class OcrHistory {
  constructor(private readonly db: Database.Database) {}

  record(r: OcrRequestRecord): void {
    const created = new Date(r.createdMs).toISOString();
    this.db.transaction(() => {
      this.db
        .prepare(
          'INSERT OR IGNORE INTO ocr_requests (request_id, app_id, group_id, endpoint, usage_type, request_args_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .run(r.requestId, r.appId, r.groupId, r.endpoint, r.usageType, requestArgsHash(r.requestArgs), created);
      if (r.improve) this.storeResult(r.requestId, r, null);
    })();
  }

  /** The pages of a finished document (a second call for the same pages changes nothing). */
  recordPdfPages(pages: PdfPageRecord[]): void {
    this.db.transaction(() => {
      for (const p of pages) if (p.improve) this.storeResult(p.imageId, p, p.pdfId);
    })();
  }

  /** DELETE /v3/pdf: the document's pages go with its outputs. */
  forgetPdf(pdfId: string): void {
    this.db.prepare('DELETE FROM ocr_results WHERE pdf_id = ?').run(pdfId);
  }

  private storeResult(imageId: string, r: Omit<OcrRequestRecord, 'requestId' | 'usageType'>, pdfId: string | null): void {
    const d = detectionsOf(r.result);
    this.db
      .prepare(
        `INSERT OR IGNORE INTO ocr_results (request_id, app_id, group_id, endpoint, created_at, duration_ms, request_args, result, tags,
           text, text_display, latex_styled, pdf_id, ${DETECTIONS.join(', ')})
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${DETECTIONS.map(() => '?').join(', ')})`,
      )
      .run(
        imageId,
        r.appId,
        r.groupId,
        r.endpoint,
        new Date(r.createdMs).toISOString(),
        Math.round(r.durationMs),
        JSON.stringify(r.requestArgs),
        JSON.stringify(r.result),
        JSON.stringify(Array.isArray(r.requestArgs.tags) ? r.requestArgs.tags.filter((t) => typeof t === 'string') : []),
        str(r.result.text),
        str(r.result.text_display),
        str(r.result.latex_styled),
        pdfId,
        ...DETECTIONS.map((k) => (d[k] ? 1 : 0)),
      );
  }

  /** The group's stored results, newest first (2.3). */
  results(groupId: string, f: ResultFilters, offset: number, count: number): Array<Record<string, unknown>> {
    const where = ['group_id = ?', 'created_at >= ?', 'created_at < ?'];
    const params: unknown[] = [groupId, isoOrEdge(f.fromMs), isoOrEdge(f.toMs)];
    if (f.appId !== undefined) (where.push('app_id = ?'), params.push(f.appId));
    if (f.requestId !== undefined) (where.push('request_id = ?'), params.push(f.requestId));
    if (f.pdfId !== undefined) (where.push('pdf_id = ?'), params.push(f.pdfId));
    if (!f.includeNull) where.push("json_extract(result, '$.error') IS NULL");
    for (const [column, value] of [
      ['text', f.text],
      ['text_display', f.textDisplay],
      ['latex_styled', f.latexStyled],
    ] as const) {
      if (value !== undefined) (where.push(`instr(${column}, ?) > 0`), params.push(value));
    }
    for (const tag of f.tags) (where.push('EXISTS (SELECT 1 FROM json_each(tags) WHERE value = ?)'), params.push(tag));
    for (const [k, v] of Object.entries(f.detections)) (where.push(`${k} = ?`), params.push(v ? 1 : 0));
    const rows = this.db
      .prepare(`SELECT * FROM ocr_results WHERE ${where.join(' AND ')} ORDER BY created_at DESC, request_id DESC LIMIT ? OFFSET ?`)
      .all(...params, count, offset) as Array<Record<string, unknown>>;
    return rows.map((row) => ({
      timestamp: row.created_at,
      endpoint: row.endpoint,
      image_id: row.request_id,
      duration: Number(row.duration_ms) / 1000,
      request_args: JSON.parse(String(row.request_args)),
      result: JSON.parse(String(row.result)),
      detections: Object.fromEntries(DETECTIONS.map((k) => [k, row[k] === 1])),
    }));
  }

  /** Request counts per timespan bucket and group (GET /v3/ocr-usage). */
  usage(groupId: string, groupBy: UsageGroup, timespan: UsageTimespan, fromMs: number, toMs: number): UsageRecord[] {
    const rows = this.db
      .prepare(
        'SELECT app_id, usage_type, request_args_hash, created_at FROM ocr_requests WHERE group_id = ? AND created_at >= ? AND created_at < ? ORDER BY created_at',
      )
      .all(groupId, isoOrEdge(fromMs), isoOrEdge(toMs)) as Array<{ app_id: string; usage_type: string; request_args_hash: string; created_at: string }>;
    const buckets = new Map<string, UsageRecord>();
    for (const row of rows) {
      const from = bucketStart(Date.parse(row.created_at), timespan);
      const key = `${from}\u0000${row[groupBy]}`;
      const rec = buckets.get(key) ?? { from_date: from, app_id: '', group_id: groupId, usage_type: '', request_args_hash: '', count: 0 };
      rec[groupBy] = row[groupBy];
      rec.count++;
      buckets.set(key, rec);
    }
    return [...buckets.values()];
  }

  /** Deletes stored results past their 30 days; request metadata stays. Returns rows removed. */
  sweep(nowMs: number): number {
    return this.db.prepare('DELETE FROM ocr_results WHERE created_at < ?').run(new Date(nowMs - OCR_RESULTS_RETENTION_MS).toISOString()).changes;
  }
}

function isoOrEdge(ms: number): string {
  if (ms === -Infinity) return '0000';
  if (ms === Infinity) return '9999';
  return new Date(ms).toISOString();
}

/** Start of the UTC hour, day, ISO week (Monday) or month holding `ms`. */
export function bucketStart(ms: number, span: UsageTimespan): string {
  const d = new Date(ms);
  if (span === 'hour') d.setUTCMinutes(0, 0, 0);
  else d.setUTCHours(0, 0, 0, 0);
  if (span === 'week') d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  if (span === 'month') d.setUTCDate(1);
  return d.toISOString();
}
