import { ApiError } from '../../../core/errors.js';
import { type PageOptions, PRIORITY, type PriorityName } from '../../../core/queue/index.js';
import type { PageRecognition } from '../../../page/model.js';
import type { AppContext } from '../../context.js';
import { QueueListener } from '../../queue-listener.js';

/** Longest a /v3/text request waits for the inference pool before answering sys_exception. */
export const TEXT_WAIT_MS = 60_000;

export interface RecognizeOptions extends Pick<PageOptions, 'math' | 'nBest' | 'smiles' | 'inchi' | 'assemble'> {
  /** /v3/text and /v3/latex wait for the answer ahead of document pages; batch images do not. @default 'high' */
  priority?: PriorityName;
}

/** Reads one prepared image; the routes take any implementation (tests use a fake). */
export type Recognize = (requestId: string, png: Buffer, opts?: RecognizeOptions) => Promise<PageRecognition>;

/**
 * The inference pool as /v3/text sees it: the image goes to Folio storage under
 * scratch/text/<request_id>, a 'page' task is queued (at high priority unless told otherwise: ahead of document pages),
 * and the request waits for the answer through QueueEvents. The image is deleted afterwards,
 * whatever happened; a task still queued when the wait ends is removed.
 */
export class InferencePool {
  private readonly listener: QueueListener;

  constructor(
    private readonly ctx: Pick<AppContext, 'config' | 'redis' | 'queues' | 'storage' | 'logger'>,
    private readonly waitMs = TEXT_WAIT_MS,
  ) {
    this.listener = new QueueListener(ctx, 'pages');
  }

  readonly recognize: Recognize = async (requestId, png, opts = {}) => {
    const imageKey = `scratch/text/${requestId}`;
    const events = await this.listener.ready();
    await this.ctx.storage.write(imageKey, png, 'image/png');
    try {
      const { priority = 'high', ...options } = opts;
      const task = await this.ctx.queues.enqueue('page', { imageKey, page: 1, options }, { jobId: `text-${requestId}`, priority: PRIORITY[priority] });
      try {
        return (await task.waitUntilFinished(events, this.waitMs)) as PageRecognition;
      } catch (err) {
        await task.remove().catch(() => undefined);
        this.ctx.logger.warn({ request_id: requestId, err: (err as Error).message }, 'text recognition failed');
        throw new ApiError('sys_exception', 'The image could not be recognised in time');
      }
    } finally {
      await this.ctx.storage.delete(imageKey).catch(() => undefined);
    }
  };

  async close(): Promise<void> {
    await this.listener.close();
  }
}

/**
 * The recogniser an image route uses: the one it was given (the appliance's shared pool, or a
 * test's fake), else a pool of its own, handed to `onPool` so its owner can close it.
 */
export function routeRecognizer(
  ctx: Pick<AppContext, 'config' | 'redis' | 'queues' | 'storage' | 'logger'>,
  opts: { recognize?: Recognize; onPool?: (pool: InferencePool) => void },
): Recognize {
  if (opts.recognize) return opts.recognize;
  const pool = new InferencePool(ctx);
  opts.onPool?.(pool);
  return pool.recognize;
}
