import type { Redis } from 'ioredis';
import { type IndexPage, flatten, incrIfExists, listIndexed, parseJson, transition, updateIfExists } from './hash.js';
import { PDF_RETENTION_SECONDS, v3Keys } from './keys.js';

/** Spec 3.4: received → loaded (source in hand) → split (page count known) → completed | error. */
export const PDF_STATUSES = ['received', 'loaded', 'split', 'completed', 'error'] as const;
export type PdfStatus = (typeof PDF_STATUSES)[number];
export const OPEN_PDF_STATUSES: readonly PdfStatus[] = ['received', 'loaded', 'split'];

/** Per-format status (spec 3.5): received, loaded, processing, completed, error. */
/** error_message says, in the caller's terms, why a format failed (a LaTeX error, a missing tool). */
export type FormatStatus = { status: 'received' | 'loaded' | 'processing' | 'completed' | 'error'; error_id?: string; error_message?: string };

export interface PdfCallback {
  url: string;
  headers: Record<string, string>;
  events: string[];
}

export type PdfSource = { kind: 'upload'; key: string } | { kind: 'url'; url: string };

/** The surface that created a document: POST /v3/pdf, or the Files API (which lists its own, spec 4.9). */
export type PdfOrigin = 'v3' | 'files';

export interface PdfRecord {
  pdf_id: string;
  /** Owner: the app whose key submitted it, and that app's group. */
  app_id: string;
  group_id: string;
  /** Only v3 documents are listed by GET /v3/pdf-results; records from before the field read as v3. */
  origin: PdfOrigin;
  status: PdfStatus;
  /** URL or uploaded filename (spec 2.4). */
  input_file: string;
  source: PdfSource;
  /** The validated options of the submission, conversion_formats included (spec 2.4). */
  request_args: Record<string, unknown>;
  conversion_formats: Record<string, boolean>;
  conversion_status: Record<string, FormatStatus>;
  callback: PdfCallback | null;
  streaming: boolean;
  created_at: string;
  modified_at: string;
  num_pages: number;
  num_pages_pdf: number;
  /** Pages that finished without error. */
  num_pages_completed: number;
  num_pages_failed: number;
  page_errors: { page: number; error_id: string; error_message: string }[];
  error_info: { id: string; message: string; [k: string]: unknown } | null;
  /** Usage deltas recorded at the end, so a re-run after a crash re-emits the same facts. */
  usage: Record<string, number> | null;
}

export type NewPdfRecord = Pick<
  PdfRecord,
  'pdf_id' | 'app_id' | 'group_id' | 'input_file' | 'source' | 'request_args' | 'conversion_formats' | 'callback' | 'streaming'
> & {
  /** @default 'v3' */
  origin?: PdfOrigin;
};

const JSON_FIELDS = ['source', 'request_args', 'conversion_formats', 'conversion_status', 'callback', 'page_errors', 'error_info', 'usage'] as const;
const NUMBER_FIELDS = ['num_pages', 'num_pages_pdf', 'num_pages_completed', 'num_pages_failed'] as const;

/** Document records: a Redis hash per pdf_id plus a per-app index of the v3 ones, all kept 90 days. */
export class PdfStore {
  readonly keys: ReturnType<typeof v3Keys>;

  constructor(
    readonly redis: Redis,
    prefix: string,
    private readonly now: () => number = Date.now,
  ) {
    this.keys = v3Keys(prefix);
  }

  private iso(): string {
    return new Date(this.now()).toISOString();
  }

  async create(rec: NewPdfRecord): Promise<PdfRecord> {
    const now = this.now();
    const iso = new Date(now).toISOString();
    const conversion_status = Object.fromEntries(
      Object.entries(rec.conversion_formats)
        .filter(([, on]) => on)
        .map(([ext]) => [ext, { status: 'received' } as FormatStatus]),
    );
    const full: PdfRecord = {
      ...rec,
      origin: rec.origin ?? 'v3',
      status: 'received',
      created_at: iso,
      modified_at: iso,
      conversion_status,
      num_pages: 0,
      num_pages_pdf: 0,
      num_pages_completed: 0,
      num_pages_failed: 0,
      page_errors: [],
      error_info: null,
      usage: null,
    };
    const key = this.keys.pdf(rec.pdf_id);
    const tx = this.redis
      .multi()
      .hset(key, ...flatten({ ...full, streaming: full.streaming ? '1' : '0' }))
      .expire(key, PDF_RETENTION_SECONDS);
    // GET /v3/pdf-results lists /v3/pdf submissions only: Files API documents stay out of the index.
    if (full.origin === 'v3') {
      const index = this.keys.appPdfs(rec.app_id);
      tx.zadd(index, now, rec.pdf_id)
        // Entries past retention point at expired records: trim them as new ones arrive.
        .zremrangebyscore(index, '-inf', now - PDF_RETENTION_SECONDS * 1000)
        .expire(index, PDF_RETENTION_SECONDS);
    }
    await tx.exec();
    return full;
  }

  async get(pdfId: string): Promise<PdfRecord | null> {
    const h = await this.redis.hgetall(this.keys.pdf(pdfId));
    if (!h.pdf_id) return null;
    const rec: Record<string, unknown> = { ...h, streaming: h.streaming === '1' };
    for (const f of JSON_FIELDS) rec[f] = parseJson(h[f], null);
    for (const f of NUMBER_FIELDS) rec[f] = Number(h[f] ?? 0);
    rec.origin ??= 'v3';
    rec.conversion_status ??= {};
    rec.conversion_formats ??= {};
    rec.request_args ??= {};
    rec.page_errors ??= [];
    return rec as unknown as PdfRecord;
  }

  /** Sets fields on an existing record; false when it was deleted or expired. */
  update(pdfId: string, fields: Partial<PdfRecord>): Promise<boolean> {
    return updateIfExists(this.redis, this.keys.pdf(pdfId), { ...fields, modified_at: this.iso() });
  }

  /** Moves the status when the record is in one of `from`; false otherwise (or when deleted). */
  transition(pdfId: string, from: readonly PdfStatus[], to: PdfStatus, fields: Partial<PdfRecord> = {}): Promise<boolean> {
    return transition(this.redis, this.keys.pdf(pdfId), from, { ...fields, status: to, modified_at: this.iso() });
  }

  /** Counts one finished page. */
  countPage(pdfId: string, ok: boolean): Promise<boolean> {
    return incrIfExists(this.redis, this.keys.pdf(pdfId), ok ? 'num_pages_completed' : 'num_pages_failed', 1, 'modified_at', this.iso());
  }

  /** Appends one page result for stream readers; the list lives as long as the record. */
  async pushPage(pdfId: string, event: Record<string, unknown>): Promise<void> {
    const key = this.keys.pdfPages(pdfId);
    await this.redis.multi().rpush(key, JSON.stringify(event)).expire(key, PDF_RETENTION_SECONDS).exec();
  }

  /** Page results from index `from` on. */
  async readPages(pdfId: string, from: number): Promise<Record<string, unknown>[]> {
    return (await this.redis.lrange(this.keys.pdfPages(pdfId), from, -1)).map((s) => JSON.parse(s));
  }

  async clearPages(pdfId: string): Promise<void> {
    await this.redis.del(this.keys.pdfPages(pdfId));
  }

  /** Removes the record, its page results and its index entry; returns what was there. */
  async delete(pdfId: string): Promise<PdfRecord | null> {
    const rec = await this.get(pdfId);
    if (!rec) return null;
    await this.redis.multi().del(this.keys.pdf(pdfId), this.keys.pdfPages(pdfId)).zrem(this.keys.appPdfs(rec.app_id), pdfId).exec();
    return rec;
  }

  /** One page of an app's records, newest first, created within the window (listIndexed). */
  list(appId: string, q: IndexPage): Promise<PdfRecord[]> {
    return listIndexed(this.redis, this.keys.appPdfs(appId), q, (id) => this.get(id));
  }
}
