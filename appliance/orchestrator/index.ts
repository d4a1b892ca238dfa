import { QueueEvents } from 'bullmq';
import { bullmqConnection } from '../../core/redis.js';
import { defineWorker } from '../../core/queue/index.js';
import type { PcoStore } from '../../core/pco/store.js';
import type { AppContext } from '../context.js';
import { enumerateJob } from './enumerate.js';
import { settleJob } from '../../core/pco/settle.js';
import { type EventHandlers, startEventsConsumer } from './events-consumer.js';

interface Part {
  stop(): Promise<void>;
}

/** Background work of the control plane: enumeration, lost-task recovery, webhooks, metering. */
export async function startOrchestrator(
  ctx: AppContext,
  redisUrl: string,
  deps: { pcoStore: PcoStore; handlers?: EventHandlers; extra?: Part[] },
): Promise<Part> {
  const parts: Part[] = [];
  const prefix = ctx.config.FOLIO_QUEUE_PREFIX;
  const conn = bullmqConnection(redisUrl);
  conn.on('error', () => undefined);
  parts.push({ stop: async () => void conn.disconnect() });

  const enumerator = defineWorker('pco-enumerate', ({ jobId }) => enumerateJob(ctx, deps.pcoStore, jobId), { connection: conn, prefix, concurrency: 2 });
  enumerator.on('error', (err) => ctx.logger.warn({ err: err.message }, 'enumerator error'));
  enumerator.on('failed', (job, err) => void markEnumerationFailed(ctx, deps.pcoStore, job?.data?.jobId, job, err));
  parts.push({ stop: () => enumerator.close() });

  // A document task that BullMQ gives up on (retries spent, or stalled too often after worker
  // crashes) must still end its file, or the job would never settle.
  const events = new QueueEvents('documents', { connection: bullmqConnection(redisUrl), prefix });
  events.on('error', () => undefined);
  events.on('failed', ({ jobId, failedReason }) => void failLostDocument(ctx, deps.pcoStore, jobId, failedReason));
  parts.push({ stop: () => events.close() });
  // Worker facts → ledger (usage) and webhooks (file and job events).
  const consumer = startEventsConsumer(ctx, { handlers: deps.handlers ?? {} });
  parts.push(consumer);
  parts.push(...(deps.extra ?? []));

  return {
    async stop() {
      for (const p of parts.reverse()) await p.stop().catch(() => undefined);
    },
  };
}

async function failLostDocument(ctx: AppContext, store: PcoStore, taskId: string, reason: string): Promise<void> {
  const m = /^(job_[0-9a-f]+)-(doc_[0-9a-f]+)-(\d+)$/.exec(taskId);
  if (!m) return;
  const [, jobId, documentId] = m as unknown as [string, string, string];
  const r = await store.transition(jobId, documentId, ['queued', 'processing'], 'failed', {
    error_id: 'sys_exception',
    error_message: `processing gave up: ${reason}`.slice(0, 500),
    finished_at: new Date(ctx.now()).toISOString(),
  });
  if (r.settleNow) await settle(ctx, store, jobId);
}

async function markEnumerationFailed(
  ctx: AppContext,
  store: PcoStore,
  jobId: string | undefined,
  job: { attemptsMade: number; opts: { attempts?: number } } | undefined,
  err: Error,
): Promise<void> {
  if (!jobId || !job || job.attemptsMade < (job.opts.attempts ?? 1)) return;
  await store.updateJob(jobId, {
    enum_status: 'error',
    status: 'error',
    error_info: JSON.stringify({ id: 'input_folder_unreadable', message: err.message.slice(0, 500) }),
  });
  // Documents already queued still run; the job settles as error once they end.
  if (await store.claimSettle(jobId)) await settle(ctx, store, jobId);
}

function settle(ctx: AppContext, store: PcoStore, jobId: string) {
  return settleJob({ store, redis: ctx.redis, prefix: ctx.config.FOLIO_QUEUE_PREFIX, settings: ctx.storageSettings, now: ctx.now }, jobId);
}
