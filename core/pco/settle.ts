import { PassThrough } from 'node:stream';
import type { Redis } from 'ioredis';
import { emitEvent } from '../events.js';
import { type StorageSettings, joinUri, openLocation } from '../storage/index.js';
import type { JobStatus } from './job-spec.js';
import type { PcoStore } from './store.js';

/** Where a job's manifest is written, under its output folder. */
export const manifestKey = (outputPrefix: string, jobId: string) => `${outputPrefix}_folio/${jobId}/manifest.jsonl`;

/**
 * Finishes a job whose settlement this process claimed: writes the manifest of outputs, then
 * records the final status. The job reads as processing until then, so a client that sees a
 * terminal status always sees its manifest_uri. A manifest that cannot be written does not hold
 * the job open: the error is kept, and a retry writes it again.
 */
export async function settleJob(
  deps: { store: PcoStore; redis: Redis; prefix: string; settings: StorageSettings; now: () => number },
  jobId: string,
): Promise<JobStatus | null> {
  const { store } = deps;
  const job = await store.getJob(jobId);
  if (!job) return null;
  const status: JobStatus = job.cancelled ? 'cancelled' : job.error_info ? 'error' : job.counts.failed > 0 ? 'completed_with_failures' : 'completed';
  const fields: Record<string, string> = { status, finished_at: new Date(deps.now()).toISOString() };
  try {
    const { storage, location } = openLocation(job.spec.output.folder, deps.settings);
    const key = manifestKey(location.key, jobId);
    const body = new PassThrough();
    const writing = storage.write(key, body, 'application/x-ndjson');
    for (const s of ['completed', 'failed'] as const) {
      let cursor: string | null = null;
      do {
        const page: { ids: string[]; next: string | null } = await store.listFileIds(jobId, [s], cursor, 500);
        for (const id of page.ids) {
          const f = await store.getFile(jobId, id);
          if (f) body.write(`${JSON.stringify({ document_id: id, key: f.key, status: f.status, outputs: f.outputs })}\n`);
        }
        cursor = page.next;
      } while (cursor);
    }
    body.end();
    await writing;
    fields.manifest_uri = joinUri(storage.rootUri, key);
    fields.manifest_error = '';
  } catch (err) {
    fields.manifest_error = (err as Error).message;
  }
  await store.updateJob(jobId, fields);
  await emitEvent(deps.redis, deps.prefix, { type: 'pco.job', eventId: `job:${jobId}:${job.created_at}:${await generationOf(store, jobId)}`, jobId });
  return status;
}

async function generationOf(store: PcoStore, jobId: string): Promise<number> {
  return Number((await store.redis.hget(store.keys.job(jobId), 'generation')) ?? 0);
}
