import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { countAlive } from '../../core/heartbeat.js';
import type { JobSpec } from '../../core/pco/job-spec.js';
import { extensionOf, outputBaseKey } from '../../core/pco/layout.js';
import { pcoKeys } from '../../core/pco/keys.js';
import { openLocation } from '../../core/storage/index.js';
import { countPages } from '../../worker/document/pipeline/index.js';
import type { AppContext } from '../context.js';
import { discover, makeFilter } from './enumerate.js';

/** Documents whose page count is read to estimate a job's pages. */
const SAMPLE_SIZE = 20;

/**
 * Estimates a job without queueing anything: counts what enumeration would find, samples page
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
  const sample: { storage: import('../../core/storage/index.js').Storage; key: string }[] = [];
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
    if (sample.length < SAMPLE_SIZE) sample.push({ storage, key: object.key });
    else if (Math.random() < SAMPLE_SIZE / discovered) sample[Math.floor(Math.random() * SAMPLE_SIZE)] = { storage, key: object.key };
  }
  const counts = await samplePageCounts(sample);
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

async function samplePageCounts(sample: { storage: import('../../core/storage/index.js').Storage; key: string }[]): Promise<number[]> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-dry-'));
  try {
    const counts: number[] = [];
    for (const [i, s] of sample.entries()) {
      const file = join(dir, `${i}.${extensionOf(s.key) || 'bin'}`);
      try {
        await pipeline(await s.storage.read(s.key), createWriteStream(file));
        counts.push(await countPages(file));
      } catch {
        // An unreadable sample says nothing about page counts; enumeration will report it.
      }
    }
    return counts;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
