import { ApiError } from '../../core/errors.js';
import { GuardedFetchError, guardedFetch, type Resolver } from '../../core/ssrf.js';
import { API_VERSION } from '../../core/versions.js';
import { SIGNATURE_HEADER, sign } from './signing.js';

/** A slow answer counts as a failed attempt (spec 6.2 item 4). */
export const DELIVERY_TIMEOUT_MS = 10_000;
export const USER_AGENT = `Folio-Webhooks/${API_VERSION}`;
// Receivers answer quickly with little; a huge answer is not worth holding in memory.
const MAX_ANSWER_BYTES = 64 * 1024;

/** How outgoing notifications connect; the defaults are production's. */
export interface SendOptions {
  /** Lab mode (FOLIO_ALLOW_PRIVATE_URLS): private addresses and http:// allowed. @default false */
  allowPrivate?: boolean;
  resolve?: Resolver;
  /** Extra trusted CA certificates for https receivers (private PKI, tests). */
  ca?: string | Buffer | Array<string | Buffer>;
  /** @default DELIVERY_TIMEOUT_MS */
  timeoutMs?: number;
}

export interface Notification {
  url: string;
  /** The submission's callback_headers. */
  headers: Record<string, string>;
  payload: unknown;
  /** Active secrets of the scope at send time: one, or two during a rotation grace period. */
  secrets: string[];
  /** Milliseconds since the epoch; the signature's t is its unix second. */
  nowMs: number;
}

export interface AttemptResult {
  /** delivered: 2xx. rejected: 4xx or a refused URL, never retried. retry: 3xx, 5xx, timeout, network. */
  result: 'delivered' | 'rejected' | 'retry';
  httpStatus: number | null;
  detail: string | null;
}

/** Classifies an answer's status as spec 6.2 asks: 3xx is not followed and counts as a failure. */
export function classifyStatus(status: number): AttemptResult['result'] {
  if (status >= 200 && status < 300) return 'delivered';
  if (status >= 400 && status < 500) return 'rejected'; // misconfigured endpoint (spec 6.2 item 5)
  return 'retry';
}

/** One signed POST of a notification through the SSRF guard. Never throws for receiver trouble. */
export async function sendNotification(n: Notification, opts: SendOptions = {}): Promise<AttemptResult> {
  const body = JSON.stringify(n.payload);
  const headers: Record<string, string> = {
    ...n.headers,
    // After the callback headers, so reserved names can never be overridden even if validation was skipped.
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    [SIGNATURE_HEADER]: sign(n.secrets, body, Math.floor(n.nowMs / 1000)),
  };
  try {
    const res = await guardedFetch(
      n.url,
      { method: 'POST', headers, body },
      {
        allowPrivate: opts.allowPrivate,
        resolve: opts.resolve,
        schemes: opts.allowPrivate ? ['https:', 'http:'] : ['https:'],
        ca: opts.ca,
        timeoutMs: opts.timeoutMs ?? DELIVERY_TIMEOUT_MS,
        maxBodyBytes: MAX_ANSWER_BYTES,
      },
    );
    const result = classifyStatus(res.status);
    const detail = result === 'delivered' ? null : res.status < 400 ? `redirect ${res.status} not followed` : `HTTP ${res.status}`;
    return { result, httpStatus: res.status, detail };
  } catch (err) {
    if (err instanceof ApiError) return { result: err.retryable ? 'retry' : 'rejected', httpStatus: null, detail: err.message };
    if (err instanceof GuardedFetchError) {
      if (err.kind === 'too_large' && err.status) {
        const result = classifyStatus(err.status);
        return { result, httpStatus: err.status, detail: result === 'delivered' ? null : `HTTP ${err.status}` };
      }
      return { result: 'retry', httpStatus: null, detail: err.kind === 'timeout' ? `timeout: ${err.message}` : err.message };
    }
    return { result: 'retry', httpStatus: null, detail: (err as Error).message };
  }
}
