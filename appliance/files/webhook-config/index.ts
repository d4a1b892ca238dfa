import type { Redis } from 'ioredis';
import { ApiError } from '../../../core/errors.js';
import type { AppContext } from '../../context.js';
import { WebhookSecrets } from '../../webhooks/secrets.js';

/** Test notifications a key may send per calendar minute (spec 4.12, 8). */
export const WEBHOOK_TESTS_PER_MINUTE = 10;
const MINUTE_MS = 60_000;

/**
 * The signing-secret scope of an application's Files API notifications (spec 4.12: one secret
 * per application, shared by all its keys): the `scope` of createDelivery
 * (appliance/webhooks/deliveries.ts) and the key of WebhookSecrets, so every file.* and job.*
 * notification of the app is signed with the secret GET /files/v1/webhook-config shows it.
 */
export function filesSecretScope(appId: string): string {
  return `files:${appId}`;
}

/** The application's signing secrets with the rotation states of spec 3.7. */
export function filesWebhookSecrets(ctx: Pick<AppContext, 'db' | 'now'>, appId: string): WebhookSecrets {
  return new WebhookSecrets({ db: ctx.db, key: filesSecretScope(appId), now: ctx.now });
}

/**
 * Counts one webhook test for the key in the current calendar minute (in Redis, so every appliance
 * process shares the count). Past WEBHOOK_TESTS_PER_MINUTE throws 429 http_max_requests until the
 * next minute starts.
 */
export async function countWebhookTest(redis: Redis, prefix: string, keyId: string, nowMs: number): Promise<void> {
  const minute = Math.floor(nowMs / MINUTE_MS);
  const counter = `${prefix}:files:webhook-tests:${keyId}:${minute}`;
  const [[, count]] = (await redis
    .multi()
    .incr(counter)
    .pexpire(counter, 2 * MINUTE_MS)
    .exec()) as [[Error | null, number], unknown];
  if (count > WEBHOOK_TESTS_PER_MINUTE) {
    throw new ApiError(
      'http_max_requests',
      `At most ${WEBHOOK_TESTS_PER_MINUTE} webhook tests per minute per app_key; retry after ${new Date((minute + 1) * MINUTE_MS).toISOString()}`,
      {
        limit_name: 'webhook_tests_per_minute',
        limit_value: WEBHOOK_TESTS_PER_MINUTE,
        count,
      },
    );
  }
}
