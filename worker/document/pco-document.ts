import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Job } from 'bullmq';
import { addCounters, observePageSeconds } from '../../core/counters.js';
import { ApiError, type ErrorId } from '../../core/errors.js';
import { emitEvent, utcDay } from '../../core/events.js';
import { extensionOf, outputBaseKey } from '../../core/pco/layout.js';
import { pcoKeys } from '../../core/pco/keys.js';
import { settleJob } from '../../core/pco/settle.js';
import type { FileRecord, JobRecord, PcoStore } from '../../core/pco/store.js';
import type { Payload } from '../../core/queue/index.js';
import { StorageError, joinUri, openLocation } from '../../core/storage/index.js';
import type { WorkerContext } from '../context.js';
import { relativeFigurePath } from '../../page/figure-links.js';
import { convertDocument, type DocumentResult, type FigureSink, type PipelineDeps } from './pipeline/index.js';
import { ocrThroughInferencePool } from './scanned-pages.js';
import { type FigureFiles, writeConversions } from './conversions.js';
import { detectFileType } from './pipeline/detect.js';
import { documentOptions } from './document-options.js';
import type { PdfOptions } from '../../core/options/pdf-options.js';

const STORAGE_ERROR_IDS: Record<StorageError['kind'], ErrorId> = {
  not_found: 'not_found',
  access_denied: 'data_source_access_denied',
  throttled: 'storage_throttled',
  unreachable: 'storage_throttled',
};

/**
 * Processes one document of a private-cloud job: download, convert, write outputs by the job's
 * layout, then record the file's end state, usage and events. Re-entrant: a task handed over
 * after a worker crash finds the file in processing and does the work again; the status move
 * to completed/failed happens once, so pages are counted and billed once.
 */
export async function processPcoDocument(ctx: WorkerContext, store: PcoStore, p: Payload<'pco-document'>, task: Job): Promise<string> {
  const job = await store.getJob(p.jobId);
  const file = await store.getFile(p.jobId, p.documentId);
  if (!job || !file || file.generation !== p.generation) return 'stale';
  if (file.status === 'completed' || file.status === 'failed') {
    // A worker killed between the status move and its events left them unsent: send them now
    // (both are idempotent by event id, and counters are guarded by recordEnd's marker).
    await recordEnd(ctx, p, file.status, file.pages - file.pages_failed, file.pages_failed, []);
    return `already ${file.status}`;
  }
  if (file.status !== 'queued' && file.status !== 'processing') return `already ${file.status}`;
  const startedAt = new Date().toISOString();
  const claim = await store.transition(p.jobId, p.documentId, ['queued', 'processing'], 'processing', { attempts: file.attempts + 1, started_at: startedAt });
  if (!claim.moved) return 'claimed elsewhere';

  const dir = await mkdtemp(join(tmpdir(), 'folio-doc-'));
  try {
    const source = join(dir, `source.${extensionOf(file.key) || 'bin'}`);
    const target = outputTarget(ctx, job, file);
    const figures = figureSink(target, p.documentId);
    const result = await download(ctx, p.sourceUri, source).then(() =>
      convert(job, source, ctx.config, { ocr: ocrThroughInferencePool(ctx, `${p.documentId}-${p.generation}`), figures }),
    );
    const outputs = await writeOutputs(ctx, job, file, target, result, source);
    await finish(ctx, store, job, file, p, result, outputs);
  } catch (err) {
    const lastAttempt = task.attemptsMade + 1 >= (task.opts.attempts ?? 1);
    const apiErr =
      err instanceof ApiError
        ? err
        : err instanceof StorageError
          ? new ApiError(STORAGE_ERROR_IDS[err.kind], err.message, {}, err.kind === 'throttled' || err.kind === 'unreachable')
          : null;
    if ((!apiErr || apiErr.retryable) && !lastAttempt) throw err; // BullMQ retries with backoff
    const id = apiErr?.id ?? 'sys_exception';
    const message = apiErr?.message ?? 'Internal error while processing the document';
    if (!apiErr) ctx.logger.error({ err: (err as Error).message, document_id: p.documentId }, 'document failed');
    await finish(ctx, store, job, file, p, null, {}, { id, message });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return 'done';
}

async function download(ctx: WorkerContext, uri: string, target: string): Promise<void> {
  const { storage, location } = openLocation(uri, ctx.storageSettings);
  await pipeline(await storage.read(location.key), createWriteStream(target));
}

function convert(job: JobRecord, path: string, config: WorkerContext['config'], deps: PipelineDeps): Promise<DocumentResult> {
  const options = documentOptions(job.spec.options.ocr as PdfOptions, job.spec.policy.per_page_timeout_seconds * 1000, config.FOLIO_OSRA_CPU_SECONDS);
  return convertDocument(path, { ...options, maxPages: job.spec.policy.max_pages_per_document }, deps);
}

/** The output bucket and the key, without extension, of one document's outputs (the job's layout). */
interface OutputTarget {
  out: ReturnType<typeof openLocation>;
  base: string;
}

function outputTarget(ctx: WorkerContext, job: JobRecord, file: FileRecord): OutputTarget {
  const spec = job.spec;
  const out = openLocation(spec.output.folder, ctx.storageSettings);
  const inputPrefix = spec.input.folder ? openLocation(spec.input.folder, ctx.storageSettings).location.key : '';
  return { out, base: outputBaseKey(spec, file.key, inputPrefix, out.location.key) };
}

/**
 * Crops of a private-cloud document: the output bucket has no CDN in front of it, so they are
 * written to a sibling folder `<basename>.images/` beside the MMD and linked by that relative path,
 * which resolves wherever the outputs are copied together. (Job inputs are documents only, so an
 * `alongside` layout never takes the crops as sources.)
 */
function figureSink({ out, base }: OutputTarget, documentId: string): FigureSink & FigureFiles {
  // Percent-encoded: a basename with spaces or parentheses would otherwise end the Markdown link.
  const folder = `${encodeURIComponent(posix.basename(base)).replace(/[()'!*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}.images/`;
  const key = (name: string) => `${base}.images/${name}.jpg`;
  return {
    prefix: documentId,
    save: (name, jpeg) => out.storage.write(key(name), jpeg, 'image/jpeg'),
    link: (name) => relativeFigurePath(name, folder),
    read: (name) => out.storage.readBuffer(key(name)),
  };
}

async function writeOutputs(
  ctx: WorkerContext,
  job: JobRecord,
  file: FileRecord,
  { out, base }: OutputTarget,
  r: DocumentResult,
  source: string,
): Promise<{ outputs: Record<string, string>; conversion: FileRecord['conversion_status'] }> {
  const spec = job.spec;
  const outputs: Record<string, string> = {};
  const put = async (ext: string, body: string | Buffer, type: string) => {
    // Never overwrite the customer's source (report.docx converted to docx alongside it).
    let key = `${base}.${ext}`;
    if (key === file.key && out.storage.rootUri === openLocation(file.sourceUri, ctx.storageSettings).storage.rootUri) key = `${base}.folio.${ext}`;
    await out.storage.write(key, body, type);
    outputs[ext] = joinUri(out.storage.rootUri, key);
  };
  await put('mmd', r.mmd, 'text/markdown; charset=utf-8');
  await put('lines.json', JSON.stringify(r.linesJson), 'application/json');
  if (spec.options.extra_outputs.includes('.lines.mmd.json')) await put('lines.mmd.json', JSON.stringify(r.linesMmdJson), 'application/json');
  const conversion = await writeConversions(
    r.mmd,
    spec.options.conversion_formats,
    put,
    figureSink({ out, base }, ''),
    (await detectFileType(source)) === 'pdf' ? source : undefined,
    r.linesJson.pages,
  );
  return { outputs, conversion };
}

async function finish(
  ctx: WorkerContext,
  store: PcoStore,
  job: JobRecord,
  file: FileRecord,
  p: Payload<'pco-document'>,
  r: DocumentResult | null,
  written: { outputs?: Record<string, string>; conversion?: FileRecord['conversion_status'] },
  docError?: { id: string; message: string },
): Promise<void> {
  const pages = r?.pages ?? [];
  const failedPages = pages.filter((pg) => pg.status === 'failed');
  const pageErrors = failedPages.map((pg) => ({ page: pg.page, error_id: pg.error_id ?? 'sys_exception', error_message: pg.error_message ?? '' }));
  const error = docError ?? (pageErrors[0] ? { id: pageErrors[0].error_id, message: `${failedPages.length} of ${pages.length} pages failed` } : null);
  const to = error ? 'failed' : 'completed';
  const okPages = pages.length - failedPages.length;
  const moved = await store.transition(
    p.jobId,
    p.documentId,
    ['processing'],
    to,
    {
      pages: pages.length,
      pages_failed: failedPages.length,
      page_errors: pageErrors,
      outputs: written.outputs ?? {},
      conversion_status: written.conversion ?? {},
      error_id: error?.id ?? null,
      error_message: error?.message ?? null,
      finished_at: new Date().toISOString(),
    },
    { completed: okPages, failed: failedPages.length },
  );
  if (!moved.moved) return;

  await recordEnd(ctx, p, to, okPages, failedPages.length, pages);
  if (moved.settleNow) {
    await settleJob({ store, redis: ctx.redis, prefix: ctx.config.FOLIO_QUEUE_PREFIX, settings: ctx.storageSettings, now: Date.now }, p.jobId);
  }
}

/**
 * Counters, usage and the file event of a document that reached `to`. Usage and the event are
 * idempotent by id (the ledger and the delivery table ignore repeats); the Redis counters and
 * page timings are added once, under a marker, so a re-run after a crash neither loses nor
 * doubles them.
 */
async function recordEnd(
  ctx: WorkerContext,
  p: Payload<'pco-document'>,
  to: 'completed' | 'failed',
  okPages: number,
  failedPages: number,
  pages: DocumentResult['pages'],
): Promise<void> {
  const prefix = ctx.config.FOLIO_QUEUE_PREFIX;
  const billable = to === 'completed';
  const deltas = {
    pages_completed: okPages,
    pages_failed: failedPages,
    documents_completed: billable ? 1 : 0,
    documents_failed: billable ? 0 : 1,
    pages_billable: billable ? okPages : 0,
    documents_billable: billable ? 1 : 0,
  };
  const marker = `${prefix}:pco:counted:${p.documentId}:${p.generation}`;
  if (await ctx.redis.set(marker, '1', 'EX', 7 * 86_400, 'NX')) {
    await addCounters(ctx.redis, prefix, deltas);
    for (const pg of pages) await observePageSeconds(ctx.redis, prefix, pg.seconds);
    await recordRate(
      ctx,
      pages.reduce((sum, pg) => sum + pg.seconds, 0),
      pages.length,
    );
  }
  await emitEvent(ctx.redis, prefix, { type: 'usage', eventId: `usage:${p.documentId}:${p.generation}`, day: utcDay(Date.now()), deltas });
  await emitEvent(ctx.redis, prefix, {
    type: 'pco.file',
    eventId: `file:${p.documentId}:${p.generation}`,
    jobId: p.jobId,
    documentId: p.documentId,
    status: to,
  });
}

/** Keeps a moving average of one worker's pages per minute, for dry-run estimates. */
async function recordRate(ctx: WorkerContext, seconds: number, pages: number): Promise<void> {
  if (!pages || seconds <= 0) return;
  const key = pcoKeys(ctx.config.FOLIO_QUEUE_PREFIX).rate;
  const sample = (pages / seconds) * 60;
  const prev = Number(await ctx.redis.get(key)) || sample;
  await ctx.redis.set(key, String(prev * 0.8 + sample * 0.2));
}
