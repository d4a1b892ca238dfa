import { ApiError } from '../../../core/errors.js';
import type { AppContext } from '../../context.js';
import type { CallbackValidator } from '../../orchestrator/pco-jobs.js';

/** Job callbacks: validated by the shared webhook rules, with invalid_callback as the id. */
export function validateJobCallback(_ctx: AppContext): CallbackValidator {
  return async (raw) => {
    if (raw.callback_url === undefined && raw.callback_events === undefined && raw.callback_headers === undefined) return null;
    throw new ApiError('invalid_callback', 'Callbacks are not available in this build yet');
  };
}
