import { ApiError } from '../../../core/errors.js';
import { emitEvent, utcDay } from '../../../core/events.js';
import type { AppContext } from '../../context.js';
import { improveFlag, type OcrHistory } from '../../results/ocr-history.js';

/**
 * What the image endpoints (/v3/text, /v3/strokes, /v3/latex, /v3/batch) share around one image:
 * the in-flight cap, the usage event and the history row.
 */

type Ctx = Pick<AppContext, 'config' | 'redis' | 'logger' | 'textRequests' | 'now'>;

/**
 * Takes one of the FOLIO_TEXT_REQUESTS_MAX slots the synchronous image endpoints share, or throws
 * 429 http_max_requests. Returns the release.
 */
export function takeImageSlot(ctx: Ctx): () => void {
  const limit = ctx.config.FOLIO_TEXT_REQUESTS_MAX;
  if (ctx.textRequests.inFlight >= limit) {
    throw new ApiError('http_max_requests', `Too many concurrent requests (limit ${limit})`, {
      limit_name: 'text_requests_max',
      limit_value: limit,
      count: ctx.textRequests.inFlight + 1,
    });
  }
  ctx.textRequests.inFlight++;
  let released = false;
  return () => {
    if (!released) ctx.textRequests.inFlight--;
    released = true;
  };
}

/** One usage event per image (event id usage:<endpoint>:<request_id>): completed + billable, or failed. */
export async function emitImageUsage(ctx: Ctx, endpoint: string, requestId: string, ok: boolean): Promise<void> {
  const deltas = ok ? { images_completed: 1, images_billable: 1 } : { images_failed: 1 };
  await emitEvent(ctx.redis, ctx.config.FOLIO_QUEUE_PREFIX, { type: 'usage', eventId: `usage:${endpoint}:${requestId}`, day: utcDay(ctx.now()), deltas }).catch(
    (err: Error) => ctx.logger.warn({ request_id: requestId, err: err.message }, 'usage event not recorded'),
  );
}

export interface ImageHistoryEntry {
  requestId: string;
  auth: { appId: string; groupId: string };
  endpoint: string;
  usageType: 'image' | 'image-async' | 'strokes';
  args: Record<string, unknown>;
  startedMs: number;
  result: Record<string, unknown>;
}

/** Records the request for /v3/ocr-usage and, unless metadata.improve_* is false, /v3/ocr-results. */
export function recordImage(ctx: Ctx, history: OcrHistory, e: ImageHistoryEntry): void {
  const { src, ...rest } = e.args;
  // A data URL is the image itself: only a fetched URL is worth keeping as an argument.
  const requestArgs = typeof src === 'string' && !src.startsWith('data:') ? { src, ...rest } : rest;
  try {
    history.record({
      requestId: e.requestId,
      appId: e.auth.appId,
      groupId: e.auth.groupId,
      endpoint: e.endpoint,
      usageType: e.usageType,
      requestArgs,
      createdMs: e.startedMs,
      durationMs: ctx.now() - e.startedMs,
      result: e.result,
      improve: improveFlag(e.args.metadata),
    });
  } catch (err) {
    ctx.logger.warn({ request_id: e.requestId, err: (err as Error).message }, 'image history not recorded');
  }
}
