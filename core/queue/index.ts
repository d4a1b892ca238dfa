import { type Job, Queue, Worker, UnrecoverableError, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { ApiError } from '../errors.js';
import { type Payload, QUEUE_NAMES, TASKS, type TaskName } from './catalog.js';

export * from './catalog.js';

/** One BullMQ Queue per queue name, sharing one connection. */
export class Queues {
  private readonly queues = new Map<string, Queue>();

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
  ) {}

  get(name: string): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.connection, prefix: this.prefix });
      this.queues.set(name, q);
    }
    return q;
  }

  /** Adds a task; `jobId` makes the add idempotent (BullMQ ignores a second add with the same id). */
  async enqueue<T extends TaskName>(task: T, payload: Payload<T>, opts: JobsOptions = {}): Promise<Job> {
    const spec = TASKS[task];
    const data = spec.payload.parse(payload);
    return this.get(spec.queue).add(task, data, {
      attempts: spec.attempts,
      backoff: { type: 'exponential', delay: spec.backoffMs },
      removeOnComplete: { age: 3600, count: 10_000 },
      removeOnFail: { age: 7 * 86_400 },
      ...opts,
    });
  }

  /** Adds many tasks of one kind in one round trip (enumeration queues a listing page at once). */
  async enqueueBulk<T extends TaskName>(task: T, items: { payload: Payload<T>; opts?: JobsOptions }[]): Promise<void> {
    if (!items.length) return;
    const spec = TASKS[task];
    await this.get(spec.queue).addBulk(
      items.map((i) => ({
        name: task,
        data: spec.payload.parse(i.payload),
        opts: {
          attempts: spec.attempts,
          backoff: { type: 'exponential', delay: spec.backoffMs },
          removeOnComplete: { age: 3600, count: 10_000 },
          removeOnFail: { age: 7 * 86_400 },
          ...i.opts,
        },
      })),
    );
  }

  /** Waiting + delayed + active + prioritized tasks per queue (for /metrics and /pco/v1/status). */
  async depths(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const name of QUEUE_NAMES) {
      const c = await this.get(name).getJobCounts('waiting', 'delayed', 'active', 'prioritized', 'paused');
      out[name] = Object.values(c).reduce((a, b) => a + b, 0);
    }
    return out;
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}

export const LOCK_MS = 10_000;
export const STALLED_CHECK_MS = 5_000;
export const MAX_STALLED_COUNT = 8;

export interface WorkerOptions {
  connection: Redis;
  prefix: string;
  concurrency?: number;
}

/**
 * A BullMQ worker for one task. The payload is validated on receipt; an invalid payload, or an
 * ApiError that says retrying cannot help, fails the task at once instead of burning attempts.
 */
export function defineWorker<T extends TaskName>(task: T, handler: (payload: Payload<T>, job: Job) => Promise<unknown>, opts: WorkerOptions): Worker {
  const spec = TASKS[task];
  return new Worker(
    spec.queue,
    async (job) => {
      if (job.name !== task) throw new UnrecoverableError(`unexpected task ${job.name} on ${spec.queue}`);
      const parsed = spec.payload.safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError(`bad payload: ${parsed.error.message}`);
      try {
        return await handler(parsed.data as Payload<T>, job);
      } catch (err) {
        if (err instanceof ApiError && !err.retryable) throw new UnrecoverableError(`${err.id}: ${err.message}`);
        throw err;
      }
    },
    {
      connection: opts.connection,
      prefix: opts.prefix,
      concurrency: opts.concurrency ?? 1,
      autorun: true,
      // A worker killed mid-task loses its lock within LOCK_MS; the stalled check hands the task
      // to another worker within STALLED_CHECK_MS after that. A task is failed only after
      // MAX_STALLED_COUNT such losses: workers die for reasons of their own (OOM kills, restarts,
      // the soak's random kills), and a good document must survive several of them.
      lockDuration: LOCK_MS,
      stalledInterval: STALLED_CHECK_MS,
      maxStalledCount: MAX_STALLED_COUNT,
    },
  );
}
