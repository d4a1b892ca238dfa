import { QueueEvents } from 'bullmq';
import { ApiError } from '../../../core/errors.js';
import type { Stroke, StrokesRead } from '../../../core/v3/strokes.js';
import type { AppContext } from '../../context.js';

/** Longest a /v3/strokes request waits for the inference pool before answering sys_exception. */
export const STROKES_WAIT_MS = 30_000;

/** Reads one request's pen strokes; the routes take any implementation. */
export type RecognizeStrokes = (requestId: string, strokes: Stroke[]) => Promise<StrokesRead>;

/**
 * The inference pool as /v3/strokes sees it: the strokes go in a 'strokes' task (they are small:
 * the body is at most 512 KB) and the request waits for the read through QueueEvents. A task still
 * queued when the wait ends is removed.
 */
export class StrokesPool {
  private events?: Promise<QueueEvents>;
  private connection?: ReturnType<AppContext['redis']['duplicate']>;

  constructor(
    private readonly ctx: Pick<AppContext, 'config' | 'redis' | 'queues' | 'logger'>,
    private readonly waitMs = STROKES_WAIT_MS,
  ) {}

  readonly recognize: RecognizeStrokes = async (requestId, strokes) => {
    const events = await this.queueEvents();
    const task = await this.ctx.queues.enqueue('strokes', { strokes }, { jobId: `strokes-${requestId}` });
    try {
      return (await task.waitUntilFinished(events, this.waitMs)) as StrokesRead;
    } catch (err) {
      await task.remove().catch(() => undefined);
      this.ctx.logger.warn({ request_id: requestId, err: (err as Error).message }, 'strokes recognition failed');
      throw new ApiError('sys_exception', 'The strokes could not be recognised in time');
    }
  };

  private queueEvents(): Promise<QueueEvents> {
    this.events ??= (async () => {
      const connection = (this.connection = this.ctx.redis.duplicate({ maxRetriesPerRequest: null, enableReadyCheck: false }));
      connection.on('error', () => undefined);
      const ev = new QueueEvents('strokes', { connection, prefix: this.ctx.config.FOLIO_QUEUE_PREFIX });
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
