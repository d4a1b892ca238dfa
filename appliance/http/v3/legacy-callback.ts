import { z } from 'zod';
import { ApiError } from '../../../core/errors.js';
import { checkUrl, guardedFetch, type Resolver } from '../../../core/ssrf.js';
import type { Logger } from '../../../core/logging.js';

/** A receiver gets this long to answer a legacy callback. */
export const LEGACY_CALLBACK_TIMEOUT_MS = 10_000;

/**
 * The legacy callback of /v3/latex and /v3/batch (spec 6.3): post (URL receiving the result),
 * reply (echoed back), body (extra data passed through), headers (sent with the delivery).
 */
export const legacyCallbackSchema = z
  .object({
    post: z.string().regex(/^https?:\/\//i, 'must be an http(s) URL'),
    reply: z.unknown().optional(),
    body: z.record(z.unknown()).optional(),
    headers: z
      .record(z.string())
      .refine((h) => Object.keys(h).length <= 10, 'at most 10 headers')
      .optional(),
  })
  .strict();
export type LegacyCallback = z.infer<typeof legacyCallbackSchema>;

export interface LegacyDeliveryOptions {
  allowPrivate: boolean;
  resolve?: Resolver;
  logger: Logger;
}

const schemesOf = (allowPrivate: boolean) => (allowPrivate ? ['https:', 'http:'] : ['https:']);

/**
 * Checks callback.post at submission (7.2: a bad callback parameter is 400 bad_request): https,
 * and not a private or internal address unless lab mode allows it. Delivery checks again.
 */
export async function checkLegacyCallback(callback: LegacyCallback, opts: Omit<LegacyDeliveryOptions, 'logger'>): Promise<void> {
  try {
    await checkUrl(callback.post, { allowPrivate: opts.allowPrivate, resolve: opts.resolve, schemes: schemesOf(opts.allowPrivate) });
  } catch (err) {
    throw new ApiError('bad_request', `callback.post: ${(err as Error).message}`, { field: 'callback.post' });
  }
}

/**
 * POSTs {reply, result} (and body, when the caller gave one) to callback.post through the SSRF
 * guard: one attempt, as the legacy endpoints never promised more; a failure is logged. Polling
 * (GET /v3/batch) stays authoritative for batches.
 */
export async function deliverLegacyCallback(callback: LegacyCallback, result: unknown, opts: LegacyDeliveryOptions): Promise<boolean> {
  const payload = { reply: callback.reply ?? null, result, ...(callback.body ? { body: callback.body } : {}) };
  try {
    const res = await guardedFetch(
      callback.post,
      { method: 'POST', headers: { ...callback.headers, 'Content-Type': 'application/json' }, body: JSON.stringify(payload) },
      {
        allowPrivate: opts.allowPrivate,
        resolve: opts.resolve,
        schemes: schemesOf(opts.allowPrivate),
        timeoutMs: LEGACY_CALLBACK_TIMEOUT_MS,
        maxBodyBytes: 64 * 1024,
      },
    );
    if (res.status >= 200 && res.status < 300) return true;
    opts.logger.warn({ url: callback.post, status: res.status }, 'legacy callback refused');
  } catch (err) {
    opts.logger.warn({ url: callback.post, err: (err as Error).message }, 'legacy callback not delivered');
  }
  return false;
}
