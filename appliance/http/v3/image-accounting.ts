import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError, toApiError } from '../../../core/errors.js';
import { emitEvent, utcDay } from '../../../core/events.js';
import type { AppContext } from '../../context.js';
import { improveFlag, type OcrHistory } from '../../results/ocr-history.js';

/**
 * What the image endpoints (/v3/text, /v3/strokes, /v3/latex, /v3/batch) share around one image:
 * the in-flight cap, the usage event and the history row, and for the three synchronous ones the
 * image stage that emits and records them (imageStage) and the answer to a failure (imageFailure).
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

export interface ImageAnswer {
  body: Record<string, unknown>;
  status: ContentfulStatusCode;
}

/**
 * A failed image request's answer (7.1): the error envelope with its request id, HTTP 200 for an
 * internal error (sys_exception), the error's own status otherwise. An error that is not an
 * ApiError is unexpected and logged.
 */
export function imageFailure(ctx: Ctx, requestId: string, err: unknown, usage: string): ImageAnswer & { apiErr: ApiError } {
  const apiErr = toApiError(err);
  if (!(err instanceof ApiError)) ctx.logger.error({ request_id: requestId, err: (err as Error).message }, `${usage} request failed`);
  return { apiErr, body: { request_id: requestId, ...apiErr.toBody() }, status: apiErr.id === 'sys_exception' ? 200 : apiErr.status };
}

/**
 * The image stage of /v3/text, /v3/strokes and /v3/latex: `read` reads the image and answers the
 * result. Every request that reaches this stage emits one usage event (`usage`: the endpoint's
 * name in its event id) and is recorded in the history, answered or failed — a bad_request
 * excepted, which refuses the request rather than reads an image. Never throws: a failure comes
 * back as its answer (imageFailure).
 */
export async function imageStage(
  ctx: Ctx,
  history: OcrHistory,
  entry: Omit<ImageHistoryEntry, 'result'> & { usage: string },
  read: () => Promise<Record<string, unknown>>,
): Promise<ImageAnswer> {
  const { usage, ...request } = entry;
  try {
    const body = await read();
    await emitImageUsage(ctx, usage, request.requestId, true);
    recordImage(ctx, history, { ...request, result: body });
    return { body, status: 200 };
  } catch (err) {
    const failed = imageFailure(ctx, request.requestId, err, usage);
    if (failed.apiErr.id !== 'bad_request') {
      await emitImageUsage(ctx, usage, request.requestId, false);
      recordImage(ctx, history, { ...request, result: failed.body });
    }
    return { body: failed.body, status: failed.status };
  }
}
