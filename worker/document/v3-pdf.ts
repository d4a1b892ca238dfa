import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job } from 'bullmq';
import { addCounters, observePageSeconds } from '../../core/counters.js';
import { ApiError } from '../../core/errors.js';
import { emitEvent, utcDay } from '../../core/events.js';
import type { PdfOptions } from '../../core/options/pdf-options.js';
import type { Payload } from '../../core/queue/index.js';
import { StorageError } from '../../core/storage/index.js';
import { deleteFolder } from '../../core/v3/folders.js';
import { pdfFolder } from '../../core/v3/keys.js';
import { OPEN_PDF_STATUSES, type FormatStatus, type PdfRecord, type PdfStore } from '../../core/v3/pdf-store.js';
import type { WorkerContext } from '../context.js';
import { CONTENT_TYPES } from '../../core/content-types.js';
import { writeConversions } from './conversions.js';
import { cdnFigureUrl, relativeFigurePath } from '../../page/figure-links.js';
import { convertDocument, type DocumentResult, type FigureSink, type OcrPage } from './pipeline/index.js';
import { detectFileType } from './pipeline/detect.js';
import { documentOptions } from './document-options.js';
import { ocrThroughInferencePool } from './scanned-pages.js';
import { sourceExtension } from '../../core/v3/source.js';
import { fetchSource } from './v3-source.js';

export interface V3PdfSeams {
  /** Scanned-page reader; null reads none (tests). @default the inference pool via the 'page' queue */
  ocr?: ((pdfPath: string) => OcrPage) | null;
}

/** The record went away (DELETE /v3/pdf) while the document was being processed. */
class Deleted extends Error {}

/**
 * Per-page limit of /v3/pdf, which has no page policy of its own (spec 4.7): as long as a scanned
 * page may wait for the inference pool (scanned-pages.ts), since it queues behind other work.
 */
export const V3_PAGE_TIMEOUT_MS = 120_000;

/**
 * Processes one /v3/pdf document: fetch the source, convert page by page (status split once the
 * page count is known, num_pages_completed as pages finish, page events for stream readers),
 * write outputs under v3/pdf/<pdf_id>/, make the requested formats, then record the end state,
 * usage and the v3.pdf event. Re-entrant after a crash: the work is redone from the start and
 * the move to completed/error happens once, so pages are counted and billed once.
 */
export async function processV3Pdf(ctx: WorkerContext, store: PdfStore, p: Payload<'v3-pdf'>, task: Job, seams: V3PdfSeams = {}): Promise<string> {
  const rec = await store.get(p.pdfId);
  if (!rec) return 'deleted';
  if (!OPEN_PDF_STATUSES.includes(rec.status)) {
    await recordFacts(ctx, rec); // a crash after the end state was written must lose none of them
    return `already ${rec.status}`;
  }
  const id = rec.pdf_id;
  const dir = await mkdtemp(join(tmpdir(), 'folio-v3pdf-'));
  try {
    const source = join(dir, `source.${sourceExtension(rec.input_file)}`);
    await fetchSource(ctx, rec, source);
    const reset = { num_pages_completed: 0, num_pages_failed: 0, page_errors: [] };
    if (!(await store.transition(id, OPEN_PDF_STATUSES, 'loaded', reset))) throw new Deleted();
    if (rec.streaming) await store.clearPages(id);
    const result = await convertDocument(source, documentOptions(rec.request_args as PdfOptions, V3_PAGE_TIMEOUT_MS, ctx.config.FOLIO_OSRA_CPU_SECONDS), {
      figures: figureSink(ctx, id),
      ocr: seams.ocr === undefined ? ocrThroughInferencePool(ctx, `v3-${id}`) : (seams.ocr ?? undefined),
      onSplit: async (numPages, numPagesPdf) => {
        if (!(await store.transition(id, ['loaded'], 'split', { num_pages: numPages, num_pages_pdf: numPagesPdf }))) throw new Deleted();
      },
      afterPage: async (outcome, mmd) => {
        if (!(await store.countPage(id, outcome.status === 'completed'))) throw new Deleted();
        if (rec.streaming) {
          const error = outcome.status === 'failed' ? { id: outcome.error_id, message: outcome.error_message } : undefined;
          await store.pushPage(id, { pdf_id: id, page: outcome.page, status: outcome.status, mmd, ...(error ? { error_info: error } : {}) });
        }
      },
    });
    const conversion = await writeOutputs(ctx, store, rec, result, source);
    await finish(ctx, store, rec, result, conversion);
  } catch (err) {
    if (err instanceof Deleted) {
      await deleteFolder(ctx.storage, pdfFolder(id));
      return 'deleted';
    }
    const lastAttempt = task.attemptsMade + 1 >= (task.opts.attempts ?? 1);
    const apiErr = err instanceof ApiError ? err : err instanceof StorageError ? storageApiError(err) : null;
    if ((!apiErr || apiErr.retryable) && !lastAttempt) throw err; // BullMQ retries with backoff
    if (!apiErr) ctx.logger.error({ err: (err as Error).message, pdf_id: id }, 'v3 document failed');
    const error = { id: apiErr?.id ?? 'sys_exception', message: apiErr?.message ?? 'Internal error while processing the document', ...apiErr?.extras };
    await finish(ctx, store, rec, null, {}, error);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return 'done';
}

/** Folio's own store failing: a missing source cannot come back, the rest may recover. */
function storageApiError(err: StorageError): ApiError {
  return err.kind === 'not_found' ? new ApiError('not_found', err.message) : new ApiError('storage_throttled', err.message, {}, true);
}

/** The MMD, its line data and the requested formats; `source` is the fetched input (its pages make jpg and png when it is a PDF). */
async function writeOutputs(ctx: WorkerContext, store: PdfStore, rec: PdfRecord, r: DocumentResult, source: string): Promise<Record<string, FormatStatus>> {
  const put = (ext: string, body: string | Buffer, type: string) => ctx.storage.write(`${pdfFolder(rec.pdf_id)}${rec.pdf_id}.${ext}`, body, type);
  await put('mmd', r.mmd, CONTENT_TYPES.mmd!);
  await put('lines.json', JSON.stringify(r.linesJson), CONTENT_TYPES['lines.json']!);
  await put('lines.mmd.json', JSON.stringify(r.linesMmdJson), CONTENT_TYPES['lines.mmd.json']!);
  const wanted = Object.keys(rec.conversion_status);
  if (!wanted.length) return {};
  const processing = Object.fromEntries(wanted.map((ext) => [ext, { status: 'processing' } as FormatStatus]));
  if (!(await store.update(rec.pdf_id, { conversion_status: processing }))) throw new Deleted();
  const figures = { read: (name: string) => ctx.storage.readBuffer(figureKey(rec.pdf_id, name)) };
  const sourcePdf = (await detectFileType(source)) === 'pdf' ? source : undefined;
  return (await writeConversions(r.mmd, rec.conversion_formats, put, figures, sourcePdf, r.linesJson.pages)) as Record<string, FormatStatus>;
}

const figureKey = (pdfId: string, name: string) => `${pdfFolder(pdfId)}${relativeFigurePath(name)}`;

/**
 * Crops of a /v3/pdf (and Files API) document: stored in its folder under images/, so retention
 * and DELETE take them with it, and linked by the appliance's unauthenticated CDN route
 * (`{cdn_url}` = FOLIO_PUBLIC_URL/cdn, appliance/http/cdn-routes.ts), whose names carry the
 * unguessable pdf_id.
 */
function figureSink(ctx: WorkerContext, pdfId: string): FigureSink {
  const cdnUrl = `${ctx.config.publicUrl}/cdn`;
  return {
    prefix: pdfId,
    save: (name, jpeg) => ctx.storage.write(figureKey(pdfId, name), jpeg, 'image/jpeg'),
    link: (name, region) => cdnFigureUrl(cdnUrl, name, region),
  };
}

/**
 * Records the end state. Every page failing, or a whole-document error, is status error; a
 * document with some failed pages completes (its failures are in page_errors) but, as in the
 * private cloud, only a document without failed pages is billable.
 */
async function finish(
  ctx: WorkerContext,
  store: PdfStore,
  rec: PdfRecord,
  r: DocumentResult | null,
  conversion: Record<string, FormatStatus>,
  docError?: { id: string; message: string; [k: string]: unknown },
): Promise<void> {
  const pages = r?.pages ?? [];
  const failed = pages.filter((pg) => pg.status === 'failed');
  const ok = pages.length - failed.length;
  const pageErrors = failed.map((pg) => ({ page: pg.page, error_id: pg.error_id ?? 'sys_exception', error_message: pg.error_message ?? '' }));
  const allFailed = pages.length > 0 && ok === 0;
  const error = docError ?? (allFailed ? { id: pageErrors[0]!.error_id, message: `${failed.length} of ${pages.length} pages failed` } : null);
  const to = error ? 'error' : 'completed';
  const billable = !error && failed.length === 0;
  const usage = {
    pages_completed: ok,
    pages_failed: failed.length,
    documents_completed: error ? 0 : 1,
    documents_failed: error ? 1 : 0,
    pages_billable: billable ? ok : 0,
    documents_billable: billable ? 1 : 0,
  };
  const formats = error
    ? Object.fromEntries(Object.keys(rec.conversion_status).map((ext) => [ext, { status: 'error', error_id: error.id } as FormatStatus]))
    : conversion;
  const moved = await store.transition(rec.pdf_id, OPEN_PDF_STATUSES, to, {
    num_pages_completed: ok,
    num_pages_failed: failed.length,
    page_errors: pageErrors,
    conversion_status: formats,
    usage,
    error_info: error ? { ...error, pdf_id: rec.pdf_id } : null,
  });
  if (!moved) {
    // Deleted while we worked: take the outputs just written with it.
    if (!(await store.get(rec.pdf_id))) await deleteFolder(ctx.storage, pdfFolder(rec.pdf_id));
    return;
  }
  await recordFacts(
    ctx,
    { ...rec, status: to, usage },
    pages.map((pg) => pg.seconds),
  );
}

/**
 * The counters, usage and v3.pdf events of a finished document. The events' ids make a second
 * emit a no-op; the Redis counters (and page timings, when known) are added once, under a marker,
 * so a worker killed between the end state and its counters neither loses nor doubles them.
 */
async function recordFacts(ctx: WorkerContext, rec: Pick<PdfRecord, 'pdf_id' | 'status' | 'usage'>, pageSeconds: number[] = []): Promise<void> {
  const prefix = ctx.config.FOLIO_QUEUE_PREFIX;
  if (rec.usage && (await ctx.redis.set(`${prefix}:v3pdf:counted:${rec.pdf_id}`, '1', 'EX', 7 * 86_400, 'NX'))) {
    await addCounters(ctx.redis, prefix, rec.usage);
    for (const seconds of pageSeconds) await observePageSeconds(ctx.redis, prefix, seconds);
  }
  if (rec.usage) await emitEvent(ctx.redis, prefix, { type: 'usage', eventId: `usage:v3pdf:${rec.pdf_id}`, day: utcDay(Date.now()), deltas: rec.usage });
  const status = rec.status === 'completed' ? 'completed' : 'error';
  await emitEvent(ctx.redis, prefix, { type: 'v3.pdf', eventId: `v3pdf:${rec.pdf_id}`, pdfId: rec.pdf_id, status });
}
