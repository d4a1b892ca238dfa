import { EventEmitter } from 'node:events';
import { ApiError } from '../../core/errors.js';
import { PdfStore, type PdfSource } from '../../core/v3/pdf-store.js';
import type { AppContext } from '../context.js';
import { FilesLedger, type FileRow } from './ledger.js';
import { filesSettings } from './settings.js';
import type { FilesSettler } from './settle.js';
import { type OpenBucketUri, stageSource, storageFailure } from './sources.js';

/** Files taken from the ledger per round. */
const DISPATCH_BATCH = 200;
/** Sources staged from customer buckets at once. */
const STAGING_CONCURRENCY = 4;
/** Rounds a throttled or unreachable bucket gets before its file fails. */
const STAGING_ATTEMPTS = 5;
/** Look at the ledger this often even without a wake-up (files settling free room). */
const POLL_MS = 1000;

/** Submissions wake the dispatcher at once instead of waiting for its next poll. */
export const dispatchWakeups = new EventEmitter();
export const wakeDispatcher = () => void dispatchWakeups.emit('wake');

/**
 * Feeds accepted files to the /v3/pdf document pipeline. A job of 200,000 files is accepted as
 * ledger rows; this loop hands them on in rounds while fewer than `dispatchWindow` files are in
 * flight, so Redis holds document records and queue tasks only for a bounded window and never
 * for a whole job. Per file: stage the source (bucket sources are copied into Folio's store),
 * create the document record (pdf_id = file_id) and queue one v3-pdf task; the round's tasks go
 * in one bulk add. A crash between the add and the ledger mark re-dispatches: existing records
 * are kept and BullMQ ignores a task id it holds.
 */
export class FilesDispatcher {
  private readonly files: FilesLedger;
  private readonly pdfs: PdfStore;
  private readonly window: number;
  private readonly stagingFailures = new Map<string, number>();
  private stopping = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly onWake = () => this.wake?.();

  constructor(
    private readonly ctx: AppContext,
    private readonly settler: FilesSettler,
    private readonly open: OpenBucketUri,
  ) {
    this.files = new FilesLedger(ctx.db);
    this.pdfs = new PdfStore(ctx.redis, ctx.config.FOLIO_QUEUE_PREFIX, ctx.now);
    this.window = filesSettings(ctx.config).dispatchWindow;
  }

  start(): void {
    dispatchWakeups.on('wake', this.onWake);
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    dispatchWakeups.off('wake', this.onWake);
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let more = false;
      try {
        more = await this.round();
      } catch (err) {
        this.ctx.logger.warn({ err: (err as Error).message }, 'files dispatcher round failed');
      }
      if (!more && !this.stopping) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, POLL_MS);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = undefined;
      }
    }
  }

  /** One round; true when a full batch went out and more may be waiting. */
  async round(): Promise<boolean> {
    const room = this.window - this.files.inFlight();
    if (room <= 0) return false;
    const rows = this.files.undispatched(Math.min(room, DISPATCH_BATCH));
    if (!rows.length) return false;
    const ready: { row: FileRow; source: PdfSource }[] = [];
    const handled: string[] = [];
    const queue = [...rows];
    const stageNext = async (): Promise<void> => {
      for (let row = queue.shift(); row && !this.stopping; row = queue.shift()) {
        if (row.status === 'error') {
          await this.settler.notify(row); // an item refused at submission: only its file.error is left to send
          handled.push(row.file_id);
          continue;
        }
        const source = await this.stage(row);
        if (source) ready.push({ row, source });
        if (source || this.files.get(row.file_id)?.status === 'error') handled.push(row.file_id);
      }
    };
    await Promise.all(Array.from({ length: STAGING_CONCURRENCY }, stageNext));
    await this.handOver(ready);
    this.files.markDispatched(handled);
    return rows.length === DISPATCH_BATCH;
  }

  /** The source for the worker, or null when the file failed or staging should be tried again. */
  private async stage(row: FileRow): Promise<PdfSource | null> {
    try {
      const source = await stageSource(this.ctx, this.open, row);
      this.stagingFailures.delete(row.file_id);
      return source;
    } catch (err) {
      const apiErr = storageFailure(err, row.source_uri ?? row.file_id);
      const attempts = (this.stagingFailures.get(row.file_id) ?? 0) + 1;
      if (apiErr.retryable && attempts < STAGING_ATTEMPTS) {
        this.stagingFailures.set(row.file_id, attempts);
        return null;
      }
      this.stagingFailures.delete(row.file_id);
      if (!(err instanceof ApiError)) this.ctx.logger.warn({ err: (err as Error).message, file_id: row.file_id }, 'staging a source failed');
      await this.settler.fail(row, apiErr);
      return null;
    }
  }

  private async handOver(ready: { row: FileRow; source: PdfSource }[]): Promise<void> {
    if (!ready.length) return;
    const submissions = new Map<number, { request_args: Record<string, unknown>; conversion_formats: Record<string, boolean> }>();
    for (const { row, source } of ready) {
      if (await this.pdfs.get(row.file_id)) continue; // dispatched before a crash: keep its progress
      let s = submissions.get(row.submission_id);
      if (!s) {
        const args = JSON.parse(this.files.submission(row.submission_id).request_args) as Record<string, unknown>;
        s = { request_args: args, conversion_formats: (args.conversion_formats as Record<string, boolean> | undefined) ?? {} };
        submissions.set(row.submission_id, s);
      }
      await this.pdfs.create({
        pdf_id: row.file_id,
        app_id: row.app_id,
        group_id: row.group_id,
        // The worker names its local copy by this: the URL, the bucket URI or the stored key all end in the type's extension.
        input_file: source.kind === 'url' ? source.url : (row.source_uri ?? source.key),
        source,
        request_args: s.request_args,
        conversion_formats: s.conversion_formats,
        callback: null, // Files API notifications are sent by FilesSettler, with the group's secret
        streaming: false,
        origin: 'files', // listed by the Files API's own routes, not by GET /v3/pdf-results
      });
    }
    await this.ctx.queues.enqueueBulk(
      'v3-pdf',
      ready.map(({ row }) => ({ payload: { pdfId: row.file_id }, opts: { jobId: `v3pdf-${row.file_id}` } })),
    );
  }
}
