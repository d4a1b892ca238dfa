import type { Readable } from 'node:stream';
import { ApiError } from '../../core/errors.js';
import type { FolioEvent } from '../../core/events.js';
import { extensionOfFormat } from '../../core/options/pdf-options.js';
import { streamToBuffer } from '../../core/storage/index.js';
import { pdfFolder } from '../../core/v3/keys.js';
import { type FormatStatus, PdfStore, type PdfRecord } from '../../core/v3/pdf-store.js';
import { FIGURES_FOLDER, relativeFigurePath, relinkFigures } from '../../page/figure-links.js';
import { relinkLinesMmd } from '../../page/render/lines-json.js';
import type { AppContext } from '../context.js';
import { createDelivery } from '../webhooks/deliveries.js';
import { FilesLedger, type FileRow } from './ledger.js';
import { JobsLedger } from './jobs-ledger.js';
import { chargePages } from './quotas.js';
import { filesSettings } from './settings.js';
import { type OpenBucketUri, storageFailure } from './sources.js';
import type { FilesCallback } from './submission.js';
import { BASE_OUTPUTS } from './uris.js';
import { filesSecretScope } from './webhook-config/index.js';

/** Outputs whose text links figures (docx, pdf and the zips carry the images themselves). */
const LINKING_FORMATS = new Set(['mmd', 'md', 'html']);

type FileEnd = {
  status: 'completed' | 'error';
  num_pages: number;
  num_pages_completed: number;
  formats: Record<string, FormatStatus>;
  error?: { id: string; message: string };
};

/**
 * Ends Files API files: from the document worker's v3.pdf fact (after copying outputs to the
 * destination bucket), or at once when staging the source failed. Settling moves the file, its
 * job's counters and, for the job's last file, the job.completed due time in one transaction;
 * notifications follow, deduplicated by event and file_id so a replayed fact sends nothing twice.
 */
export class FilesSettler {
  private readonly files: FilesLedger;
  private readonly jobs: JobsLedger;
  private readonly pdfs: PdfStore;
  private readonly delayMs: number;

  constructor(
    private readonly ctx: AppContext,
    private readonly open: OpenBucketUri,
  ) {
    this.files = new FilesLedger(ctx.db);
    this.jobs = new JobsLedger(ctx.db);
    this.pdfs = new PdfStore(ctx.redis, ctx.config.FOLIO_QUEUE_PREFIX, ctx.now);
    this.delayMs = filesSettings(ctx.config).jobCompletedDelayMs;
  }

  /** Handler of every v3.pdf fact: counts the app's monthly pages, then settles the file if it is one of ours. */
  async onDocumentEnd(e: Extract<FolioEvent, { type: 'v3.pdf' }>): Promise<void> {
    const rec = await this.pdfs.get(e.pdfId);
    if (rec?.usage) chargePages(this.ctx.db, e.eventId, rec.app_id, rec.usage.pages_billable ?? 0, this.ctx.now());
    const row = this.files.get(e.pdfId);
    if (!row || row.status === 'deleted') return;
    if (row.status === 'pending' || row.status === 'split') this.settle(row, rec ? await this.endOf(row, rec) : lost());
    await this.notify(this.files.get(row.file_id)!);
  }

  /** Ends a file whose source could not be staged (never handed to the worker). */
  async fail(row: FileRow, err: ApiError): Promise<void> {
    this.settle(row, { status: 'error', num_pages: 0, num_pages_completed: 0, formats: {}, error: { id: err.id, message: err.message } });
    await this.notify(this.files.get(row.file_id)!);
  }

  private settle(row: FileRow, end: FileEnd): void {
    const now = this.ctx.now();
    this.ctx.db.transaction(() => {
      if (!this.files.settle(row.file_id, end, now) || !row.job_id) return;
      this.jobs.countSettled(row.job_id, end.status === 'completed', { sent: end.num_pages, completed: end.num_pages_completed }, now);
      this.jobs.scheduleCompletionIfSettled(row.job_id, this.delayMs, now);
    })();
  }

  /** The file's end from its document record; a completed one first gets its outputs to the destination. */
  private async endOf(row: FileRow, rec: PdfRecord): Promise<FileEnd> {
    const pages = { num_pages: rec.num_pages, num_pages_completed: rec.num_pages_completed, formats: rec.conversion_status };
    if (rec.status !== 'completed') {
      const info = rec.error_info ?? { id: 'sys_exception', message: 'Processing failed' };
      return { status: 'error', ...pages, error: { id: info.id, message: info.message } };
    }
    if (row.destination_uri) {
      try {
        await this.copyToDestination(row, rec);
      } catch (err) {
        const apiErr = storageFailure(err, row.destination_uri);
        if (apiErr.retryable) throw apiErr; // the events consumer tries the fact again
        return { status: 'error', ...pages, error: { id: apiErr.id, message: apiErr.message } };
      }
    }
    return { status: 'completed', ...pages };
  }

  /**
   * Writes <destination_uri>/<basename>.<ext> for the MMD, its line data and each completed
   * format. With image_output_mode local the crops go to <destination_uri>/images/ and the
   * outputs that link them (MMD, md, html, lines.mmd.json) link images/<name>.jpg instead of the CDN.
   */
  private async copyToDestination(row: FileRow, rec: PdfRecord): Promise<void> {
    const { storage, key } = await this.open(this.ctx, row.group_id, row.destination_uri!);
    const prefix = key === '' || key.endsWith('/') ? key : `${key}/`;
    const folder = pdfFolder(row.file_id);
    const local = this.files.submission(row.submission_id).image_output_mode === 'local';
    const figures = local
      ? await this.copyFigures(folder, (name, body) => storage.write(`${prefix}${relativeFigurePath(name)}`, body, 'image/jpeg'))
      : new Set<string>();
    const toLocal = (name: string) => relativeFigurePath(name);
    const done = Object.entries(rec.conversion_status)
      .filter(([, s]) => s.status === 'completed')
      .map(([format]) => extensionOfFormat(format));
    const mmdKey = `${folder}${row.file_id}.mmd`;
    const doc = figures.size ? relinkFigures((await this.ctx.storage.readBuffer(mmdKey)).toString('utf8'), figures, toLocal) : undefined;
    for (const ext of new Set([...BASE_OUTPUTS, ...done])) {
      const source = `${folder}${row.file_id}.${ext}`;
      let body: Readable | string = await this.ctx.storage.read(source);
      if (doc && ext === 'lines.mmd.json') body = relinkLinesMmd((await streamToBuffer(body)).toString('utf8'), doc, figures, toLocal);
      else if (doc && LINKING_FORMATS.has(ext)) body = relinkFigures((await streamToBuffer(body)).toString('utf8'), figures, toLocal).text;
      await storage.write(`${prefix}${row.output_basename}.${ext}`, body);
    }
  }

  /** Copies the document's crops with `write`; returns their names. */
  private async copyFigures(folder: string, write: (name: string, body: Readable) => Promise<void>): Promise<Set<string>> {
    const names = new Set<string>();
    for await (const o of this.ctx.storage.list({ prefix: `${folder}${FIGURES_FOLDER}` })) {
      const name = /([A-Za-z0-9_-]+)\.jpg$/.exec(o.key)?.[1];
      if (!name) continue;
      await write(name, await this.ctx.storage.read(o.key));
      names.add(name);
    }
    return names;
  }

  /** Sends file.completed / file.error when the file's submission subscribed (spec 6.1). */
  async notify(row: FileRow): Promise<void> {
    if (row.status !== 'completed' && row.status !== 'error') return;
    const callback = this.files.submission(row.submission_id).callback;
    const cb = callback ? (JSON.parse(callback) as FilesCallback) : null;
    const event = row.status === 'completed' ? 'file.completed' : 'file.error';
    if (!cb || !cb.events.includes(event)) return;
    const base = { event, file_id: row.file_id, status: row.status, num_pages: row.num_pages, num_pages_completed: row.num_pages_completed };
    const payload =
      event === 'file.completed' ? base : { ...base, custom_id: row.custom_id, job_id: row.job_id, error_info: { id: row.error, message: row.error_message } };
    await createDelivery(this.ctx, {
      scope: filesSecretScope(row.app_id),
      url: cb.url,
      headers: cb.headers,
      event,
      payload,
      dedupeKey: `${event}:${row.file_id}`,
      jobId: row.job_id,
      fileId: row.file_id,
    });
  }
}

/** A document record gone before its file settled (expired, or removed under a running worker). */
function lost(): FileEnd {
  return {
    status: 'error',
    num_pages: 0,
    num_pages_completed: 0,
    formats: {},
    error: { id: 'sys_exception', message: 'The document record was lost during processing' },
  };
}
