import type { AppContext } from '../../context.js';
import type { CallbackValidator } from '../../orchestrator/pco-jobs.js';
import { parseCallbackParams } from '../../webhooks/callback-params.js';

/** Events a job's callback gets when callback_events is absent (4.13). */
export const DEFAULT_JOB_EVENTS = ['job.completed'];

/** Job callbacks: the shared 7.3 rules, reported with invalid_callback. */
export function validateJobCallback(ctx: AppContext): CallbackValidator {
  return async (raw) => {
    const cb = await parseCallbackParams(raw, { errorId: 'invalid_callback', allowPrivate: ctx.config.FOLIO_ALLOW_PRIVATE_URLS });
    if (!cb) return null;
    return { url: cb.url, headers: cb.headers, events: cb.events ?? DEFAULT_JOB_EVENTS };
  };
}
