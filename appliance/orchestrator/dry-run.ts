import { countAlive } from '../../core/heartbeat.js';
import type { JobSpec } from '../../core/pco/job-spec.js';
import { extensionOf, outputBaseKey } from '../../core/pco/layout.js';
import { pcoKeys } from '../../core/pco/keys.js';
import { TASKS } from '../../core/queue/index.js';
import { joinUri, openLocation } from '../../core/storage/index.js';
import type { AppContext } from '../context.js';
import { QueueListener } from '../queue-listener.js';
import { discover, makeFilter } from './enumerate.js';

/** Documents whose page count is read to estimate a job's pages. */
const SAMPLE_SIZE = 20;
/** Longest a dry run waits for a document worker to count its sample. */
const COUNT_WAIT_MS = 30_000;

/**
 * Estimates a job without queueing any document: counts what enumeration would find, samples page
 * counts, and turns the deployment's measured page rate into GPU hours once one exists.
 */
export async function dryRun(ctx: AppContext, spec: JobSpec) {
  const accept = makeFilter(spec);
  const out = openLocation(spec.output.folder, ctx.storageSettings);
  const inputPrefix = spec.input.folder ? openLocation(spec.input.folder, ctx.storageSettings).location.key : '';
  const byType: Record<string, number> = {};
  let discovered = 0;
  let excluded = 0;
  let already = 0;
  const sample: string[] = [];
  for await (const { storage, object, relative } of discover(spec, ctx.storageSettings)) {
    if (!accept(relative)) {
      excluded++;
      continue;
    }
    discovered++;
    const type = extensionOf(object.key);
    byType[type] = (byType[type] ?? 0) + 1;
    if (await out.storage.exists(`${outputBaseKey(spec, object.key, inputPrefix, out.location.key)}.mmd`)) already++;
    // Reservoir sampling keeps the sample uniform over a listing of unknown length.
    const uri = joinUri(storage.rootUri, object.key);
    if (sample.length < SAMPLE_SIZE) sample.push(uri);
    else if (Math.random() < SAMPLE_SIZE / discovered) sample[Math.floor(Math.random() * SAMPLE_SIZE)] = uri;
  }
  const counts = await samplePageCounts(ctx, sample);
  const avg = counts.length ? counts.reduce((a, b) => a + b, 0) / counts.length : 0;
  const toProcess = spec.output.on_existing === 'skip' ? discovered - already : discovered;
  const estimatedTotal = Math.round(avg * toProcess);
  const prefix = ctx.config.FOLIO_QUEUE_PREFIX;
  const gpuWorkers = await countAlive(ctx.redis, prefix, 'inference', ctx.config.FOLIO_HEARTBEAT_MS).catch(() => 0);
  const perWorker = Number(await ctx.redis.get(pcoKeys(prefix).rate).catch(() => null)) || null;
  return {
    dry_run: true,
    files: { discovered, excluded, already_processed: already, by_type: byType },
    pages: { files_sampled: counts.length, estimated_total: estimatedTotal },
    estimated_gpu_hours: perWorker ? Math.round((estimatedTotal / perWorker / 60) * 1000) / 1000 : null,
    deployment: { gpu_workers: gpuWorkers, measured_pages_per_minute: perWorker ? Math.round(perWorker * Math.max(1, gpuWorkers) * 10) / 10 : null },
  };
}

/**
 * Page counts of the sample, read by a document worker ('count-pages' task): opening documents
 * (LibreOffice for office files, pdf.js) is worker work. Without a live document worker, or past
 * COUNT_WAIT_MS, the estimate goes without a sample (files_sampled 0) rather than hold the request.
 */
async function samplePageCounts(ctx: AppContext, sourceUris: string[]): Promise<number[]> {
  if (!sourceUris.length) return [];
  const prefix = ctx.config.FOLIO_QUEUE_PREFIX;
  if (!(await countAlive(ctx.redis, prefix, 'document', ctx.config.FOLIO_HEARTBEAT_MS).catch(() => 0))) return [];
  const listener = new QueueListener(ctx, TASKS['count-pages'].queue);
  try {
    const events = await listener.ready();
    const task = await ctx.queues.enqueue('count-pages', { sourceUris });
    try {
      const { counts } = (await task.waitUntilFinished(events, COUNT_WAIT_MS)) as { counts: (number | null)[] };
      return counts.filter((n): n is number => typeof n === 'number');
    } catch (err) {
      await task.remove().catch(() => undefined);
      ctx.logger.warn({ err: (err as Error).message }, 'dry run: sample pages not counted');
      return [];
    }
  } finally {
    await listener.close();
  }
}
