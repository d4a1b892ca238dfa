import { ApiError } from '../../../core/errors.js';
import type { Stroke, StrokesRead } from '../../../core/v3/strokes.js';
import type { AppContext } from '../../context.js';
import { QueueListener } from '../../queue-listener.js';

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
  private readonly listener: QueueListener;

  constructor(
    private readonly ctx: Pick<AppContext, 'config' | 'redis' | 'queues' | 'logger'>,
    private readonly waitMs = STROKES_WAIT_MS,
  ) {
    this.listener = new QueueListener(ctx, 'strokes');
  }

  readonly recognize: RecognizeStrokes = async (requestId, strokes) => {
    const events = await this.listener.ready();
    const task = await this.ctx.queues.enqueue('strokes', { strokes }, { jobId: `strokes-${requestId}` });
    try {
      return (await task.waitUntilFinished(events, this.waitMs)) as StrokesRead;
    } catch (err) {
      await task.remove().catch(() => undefined);
      this.ctx.logger.warn({ request_id: requestId, err: (err as Error).message }, 'strokes recognition failed');
      throw new ApiError('sys_exception', 'The strokes could not be recognised in time');
    }
  };

  async close(): Promise<void> {
    await this.listener.close();
  }
}
