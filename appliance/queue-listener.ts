import { QueueEvents } from 'bullmq';
import type { AppContext } from './context.js';

/**
 * One QueueEvents listener on a queue, opened on first use and shared by every request of a pool:
 * what an image route waits on for its task's answer (`task.waitUntilFinished(await ready(), ms)`).
 */
export class QueueListener {
  private events?: Promise<QueueEvents>;
  private connection?: ReturnType<AppContext['redis']['duplicate']>;

  constructor(
    private readonly ctx: Pick<AppContext, 'config' | 'redis'>,
    private readonly queue: string,
  ) {}

  ready(): Promise<QueueEvents> {
    this.events ??= (async () => {
      const connection = (this.connection = this.ctx.redis.duplicate({ maxRetriesPerRequest: null, enableReadyCheck: false }));
      connection.on('error', () => undefined);
      const ev = new QueueEvents(this.queue, { connection, prefix: this.ctx.config.FOLIO_QUEUE_PREFIX });
      ev.on('error', () => undefined);
      await ev.waitUntilReady();
      return ev;
    })();
    return this.events;
  }

  async close(): Promise<void> {
    if (!this.events) return;
    const ev = await this.events.catch(() => null);
    this.events = undefined;
    await ev?.close();
    this.connection?.disconnect();
  }
}
