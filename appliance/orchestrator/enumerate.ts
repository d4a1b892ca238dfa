import picomatch from 'picomatch';
import type { JobsOptions } from 'bullmq';
import { hashId } from '../../core/ids.js';
import { PRIORITY, type Payload } from '../../core/queue/index.js';
import { DOCUMENT_EXTENSIONS, extensionOf, isFolioOutput, outputBaseKey } from '../../core/pco/layout.js';
import { settleJob } from '../../core/pco/settle.js';
import type { PcoStore } from '../../core/pco/store.js';
import type { JobSpec } from '../../core/pco/job-spec.js';
import { type ObjectInfo, type Storage, joinUri, openLocation } from '../../core/storage/index.js';
import { existingKeys } from './existing-outputs.js';
import type { AppContext } from '../context.js';

// One listing page (S3, GCS and Azure return up to 1,000 keys a request): one flush per request.
const BATCH = 1000;
const CANCEL_CHECK_EVERY = 1000;

export interface DiscoveredObject {
  storage: Storage;
  object: ObjectInfo;
  /** Key relative to the input folder, what include/exclude globs match. */
  relative: string;
}

/** Streams the job's input objects (Folio's own outputs left out) as the listing pages arrive. */
export async function* discover(spec: JobSpec, settings: AppContext['storageSettings']): AsyncIterable<DiscoveredObject> {
  if (spec.input.folder) {
    const { storage, location } = openLocation(spec.input.folder, settings);
    for await (const object of storage.list({ prefix: location.key, recursive: spec.input.recursive })) {
      if (!isFolioOutput(object.key)) yield { storage, object, relative: object.key.slice(location.key.length) };
    }
    return;
  }
  for (const uri of spec.input.files ?? []) {
    const { storage, location } = openLocation(uri, settings);
    const head = await storage.head(location.key);
    yield { storage, object: head ?? { key: location.key, size: -1 }, relative: location.key.split('/').pop()! };
  }
}

/** Include/exclude globs and the document types a job takes; globs without '/' match file names. */
export function makeFilter(spec: JobSpec): (relative: string) => boolean {
  const opts = { dot: true, basename: true };
  const include = spec.input.include.length ? picomatch(spec.input.include, opts) : () => true;
  const exclude = spec.input.exclude.length ? picomatch(spec.input.exclude, opts) : () => false;
  return (rel) => DOCUMENT_EXTENSIONS.has(extensionOf(rel)) && include(rel) && !exclude(rel);
}

export const documentIdOf = (jobId: string, sourceUri: string) => hashId('doc_', [jobId, sourceUri], 24);

/**
 * Enumerates a job: lists its input page by page, records each document as queued (or skipped
 * when its output exists and on_existing is skip) and queues it while listing continues. Safe to
 * run again after a crash: records are created only once and queue ids are deterministic.
 */
export async function enumerateJob(ctx: AppContext, store: PcoStore, jobId: string): Promise<void> {
  const job = await store.getJob(jobId);
  if (!job || job.cancelled || job.enum_status !== 'running') return;
  const spec = job.spec;
  const accept = makeFilter(spec);
  const out = openLocation(spec.output.folder, ctx.storageSettings);
  const inputPrefix = spec.input.folder ? openLocation(spec.input.folder, ctx.storageSettings).location.key : '';
  const opts: JobsOptions = { priority: PRIORITY[spec.policy.priority], attempts: spec.policy.max_retries + 1 };
  let batch: DiscoveredObject[] = [];
  let excluded = 0;
  let seen = 0;

  /**
   * Records and queues one listing batch: output existence from listings of the output folder,
   * records in one round trip, tasks in one bulk add.
   */
  const flush = async (items: DiscoveredObject[], excludedCount: number) => {
    const docs = items.map(({ storage, object }) => {
      const sourceUri = joinUri(storage.rootUri, object.key);
      return { object, sourceUri, documentId: documentIdOf(jobId, sourceUri), output: `${outputBaseKey(spec, object.key, inputPrefix, out.location.key)}.mmd` };
    });
    const existing =
      spec.output.on_existing === 'skip'
        ? await existingKeys(
            out.storage,
            docs.map((d) => d.output),
          )
        : new Set<string>();
    const moves = docs.map((d) => {
      const skip = existing.has(d.output);
      return {
        jobId,
        documentId: d.documentId,
        from: '-' as const,
        to: skip ? ('skipped' as const) : ('queued' as const),
        fields: {
          key: d.object.key,
          source_uri: d.sourceUri,
          size: d.object.size,
          generation: 0,
          attempts: 0,
          ...(skip ? { error_message: 'output exists (on_existing: skip)' } : {}),
        },
      };
    });
    const results = await store.transitionMany(moves);
    const tasks = docs.flatMap((d, i) =>
      moves[i]!.to === 'queued' && results[i]!.moved
        ? [{ payload: { jobId, documentId: d.documentId, sourceUri: d.sourceUri, generation: 0 }, opts: { ...opts, jobId: `${jobId}-${d.documentId}-0` } }]
        : [],
    );
    await ctx.queues.enqueueBulk('pco-document', tasks);
    await store.redis
      .multi()
      .hincrby(store.keys.job(jobId), 'files_listed', items.length + excludedCount)
      .hincrby(store.keys.job(jobId), 'files_excluded', excludedCount)
      .exec();
  };
  // One batch is recorded while the listing fetches the next: the two wait on different services.
  let recording: Promise<void> | null = null;
  const startFlush = async () => {
    const items = batch;
    const excludedCount = excluded;
    batch = [];
    excluded = 0;
    await recording;
    recording = flush(items, excludedCount);
    // Its failure is raised where it is awaited; this only keeps Node from calling it unhandled meanwhile.
    recording.catch(() => undefined);
  };
  // A re-run after a crash recounts from zero; records and queue ids are idempotent.
  await store.updateJob(jobId, { files_listed: 0, files_excluded: 0 });
  try {
    for await (const item of discover(spec, ctx.storageSettings)) {
      seen++;
      if (accept(item.relative)) batch.push(item);
      else excluded++;
      if (batch.length + excluded >= BATCH) await startFlush();
      if (seen % CANCEL_CHECK_EVERY === 0 && (await store.redis.hget(store.keys.job(jobId), 'cancelled')) === '1') break;
    }
    await startFlush();
    await recording;
  } finally {
    // Never leave a batch being written behind a failed listing.
    await (recording as Promise<void> | null)?.catch(() => undefined);
  }
  const cancelled = (await store.redis.hget(store.keys.job(jobId), 'cancelled')) === '1';
  await store.updateJob(jobId, { enum_status: cancelled ? 'cancelled' : 'completed', ...(cancelled ? {} : { status: 'processing' }) });
  if (await store.claimSettle(jobId)) {
    await settleJob({ store, redis: ctx.redis, prefix: ctx.config.FOLIO_QUEUE_PREFIX, settings: ctx.storageSettings, now: ctx.now }, jobId);
  }
}
