import type { Redis } from 'ioredis';
import type { Logger } from '../../core/logging.js';
import type { ObjectInfo, Storage } from '../../core/storage/index.js';
import { ConversionStore } from '../../core/v3/conversion-store.js';
import { deleteFolder } from '../../core/v3/folders.js';
import { CONVERSION_RETENTION_SECONDS, PDF_RETENTION_SECONDS, V3_ID, conversionFolder, pdfFolder } from '../../core/v3/keys.js';
import { OPEN_PDF_STATUSES, PdfStore } from '../../core/v3/pdf-store.js';
import type { AppContext } from '../context.js';
import { improveFlag } from '../results/ocr-history.js';
import { OcrHistory } from '../results/ocr-history.js';

const DAY_MS = 86_400_000;
/** Spec 8: a /v3/pdf source is kept up to 30 days. */
export const SOURCE_RETENTION_MS = 30 * DAY_MS;
/** Spec 8: /v3/pdf records, MMD and line outputs up to 90 days. */
export const PDF_OUTPUT_RETENTION_MS = PDF_RETENTION_SECONDS * 1000;
/** Spec 8: /v3/converter status up to 90 days; its outputs go with it. */
export const CONVERSION_RETENTION_MS = CONVERSION_RETENTION_SECONDS * 1000;
/**
 * A folder whose record is gone is removed only once its newest object is this old: POST
 * /v3/pdf stores an upload before it creates the record, and a sweep must not fall between.
 */
export const ORPHAN_GRACE_MS = DAY_MS;

export interface RetentionOptions {
  storage: Storage;
  redis: Redis;
  prefix: string;
  logger: Logger;
  /** @default Date.now */
  now?: () => number;
  /** @default 1 hour */
  intervalMs?: number;
  /** Stored image results (GET /v3/ocr-results), kept 30 days. */
  ocrHistory?: OcrHistory;
}

/** What one sweep removed. */
export interface SweepReport {
  pdfsExpired: number;
  sourcesRemoved: number;
  conversionsExpired: number;
  orphanFoldersRemoved: number;
  ocrResultsExpired: number;
}

/**
 * Enforces the retention windows of spec part 8 on Folio's own store: /v3/pdf sources after 30
 * days (right after processing when metadata.improve_* is false), /v3/pdf records and outputs
 * after 90 days, /v3/converter records and outputs after 90 days, and folders whose record is
 * gone (expired in Redis, or a DELETE interrupted half-way). Redis TTLs expire the records on
 * their own; the sweeper is what removes the stored objects. Stored /v3/ocr-results records go
 * after 30 days too (appliance/results/ocr-history.ts). Results written to a customer's
 * bucket (Files API, private cloud) are never touched.
 */
export class RetentionSweeper {
  private readonly pdfs: PdfStore;
  private readonly conversions: ConversionStore;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: RetentionOptions) {
    this.now = opts.now ?? Date.now;
    this.pdfs = new PdfStore(opts.redis, opts.prefix, this.now);
    this.conversions = new ConversionStore(opts.redis, opts.prefix, this.now);
  }

  /** Sweeps once now, then every interval; a sweep never overlaps the previous one. */
  start(): void {
    const tick = () => {
      this.running = this.running.then(() => this.sweep()).catch((err: Error) => this.opts.logger.warn({ err: err.message }, 'retention sweep failed'));
    };
    tick();
    this.timer = setInterval(tick, this.opts.intervalMs ?? 3_600_000);
    this.timer.unref();
  }

  /** Stops the schedule and waits for a sweep in progress. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  async sweep(): Promise<SweepReport> {
    const report: SweepReport = { pdfsExpired: 0, sourcesRemoved: 0, conversionsExpired: 0, orphanFoldersRemoved: 0, ocrResultsExpired: 0 };
    report.ocrResultsExpired = this.opts.ocrHistory?.sweep(this.now()) ?? 0;
    for (const [id, objects] of await this.folders('v3/pdf/')) await this.sweepPdf(id, objects, report);
    for (const [id, objects] of await this.folders('v3/converter/')) await this.sweepConversion(id, objects, report);
    if (Object.values(report).some((n) => n > 0)) this.opts.logger.info(report, 'retention sweep');
    return report;
  }

  private async sweepPdf(id: string, objects: ObjectInfo[], report: SweepReport): Promise<void> {
    const rec = await this.pdfs.get(id);
    if (!rec) return this.removeOrphan(pdfFolder(id), objects, report);
    const age = this.now() - Date.parse(rec.created_at);
    if (age >= PDF_OUTPUT_RETENTION_MS) {
      await this.pdfs.delete(id);
      await deleteFolder(this.opts.storage, pdfFolder(id));
      report.pdfsExpired++;
      return;
    }
    const finished = !OPEN_PDF_STATUSES.includes(rec.status);
    const optedOut = finished && !improveFlag(rec.request_args.metadata);
    if (age < SOURCE_RETENTION_MS && !optedOut) return;
    const sources = objects.filter((o) => o.key.startsWith(`${pdfFolder(id)}source.`));
    await Promise.all(sources.map((o) => this.opts.storage.delete(o.key)));
    report.sourcesRemoved += sources.length;
  }

  private async sweepConversion(id: string, objects: ObjectInfo[], report: SweepReport): Promise<void> {
    const rec = await this.conversions.get(id);
    if (!rec) return this.removeOrphan(conversionFolder(id), objects, report);
    if (this.now() - Date.parse(rec.created_at) < CONVERSION_RETENTION_MS) return;
    await this.conversions.delete(id);
    await deleteFolder(this.opts.storage, conversionFolder(id));
    report.conversionsExpired++;
  }

  private async removeOrphan(folder: string, objects: ObjectInfo[], report: SweepReport): Promise<void> {
    const newest = Math.max(...objects.map((o) => o.lastModified?.getTime() ?? this.now()));
    if (this.now() - newest < ORPHAN_GRACE_MS) return;
    await deleteFolder(this.opts.storage, folder);
    report.orphanFoldersRemoved++;
  }

  /** The objects under `root`, grouped by the id folder they sit in; other keys are ignored. */
  private async folders(root: string): Promise<Map<string, ObjectInfo[]>> {
    const byId = new Map<string, ObjectInfo[]>();
    for await (const o of this.opts.storage.list({ prefix: root })) {
      const id = o.key.slice(root.length).split('/')[0]!;
      if (!V3_ID.test(id)) continue;
      const list = byId.get(id);
      if (list) list.push(o);
      else byId.set(id, [o]);
    }
    return byId;
  }
}

/** The sweeper of an appliance, started; stop() it with the orchestrator. */
export function startRetentionSweeper(ctx: AppContext, opts: Pick<RetentionOptions, 'intervalMs'> = {}): RetentionSweeper {
  const sweeper = new RetentionSweeper({
    storage: ctx.storage,
    redis: ctx.redis,
    prefix: ctx.config.FOLIO_QUEUE_PREFIX,
    logger: ctx.logger,
    now: ctx.now,
    ocrHistory: new OcrHistory(ctx.db),
    ...opts,
  });
  sweeper.start();
  return sweeper;
}
