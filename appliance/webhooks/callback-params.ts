import { ApiError, type ErrorId } from '../../core/errors.js';
import { checkUrl, type Resolver } from '../../core/ssrf.js';

/** The events a submission may subscribe to (spec 6.1). */
export const CALLBACK_EVENTS = ['file.error', 'file.completed', 'job.completed'] as const;
export type CallbackEvent = (typeof CALLBACK_EVENTS)[number];

export const MAX_CALLBACK_HEADERS = 10;
/** Sum of UTF-8 bytes of every header name and value. */
export const MAX_CALLBACK_HEADER_BYTES = 4096;
export const MAX_CALLBACK_URL_LENGTH = 2048;

const RESERVED_HEADERS = new Set(['host', 'content-type', 'content-length', 'transfer-encoding', 'connection', 'user-agent']);
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Field values as Node's http accepts them (RFC 9110 field-vchar, obs-text, SP, HTAB); CR, LF and NUL
// would split the request and anything past U+00FF makes Node throw at send time.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export interface CallbackInput {
  callback_url?: unknown;
  callback_headers?: unknown;
  callback_events?: unknown;
}

export interface CallbackParams {
  url: string;
  /** Sent with every notification; empty when none were given. */
  headers: Record<string, string>;
  /** Undefined: the caller's default selection (spec 6.1); an empty array turns notifications off. */
  events: CallbackEvent[] | undefined;
}

export interface CallbackParamOptions {
  /** v3 and Files API answer bad_request, /pco/v1 invalid_callback. @default 'bad_request' */
  errorId?: Extract<ErrorId, 'bad_request' | 'invalid_callback'>;
  /** Lab mode (FOLIO_ALLOW_PRIVATE_URLS): private addresses and http:// pass. @default false */
  allowPrivate?: boolean;
  resolve?: Resolver;
}

/**
 * Validates the callback parameters of a submission by the rules of spec 4.12 and 7.3 and returns
 * them normalised, or null when no callback_url (and nothing else) was given: nothing will be sent.
 * Every problem throws ApiError with `opts.errorId`; the whole submission fails.
 */
export async function parseCallbackParams(input: CallbackInput, opts: CallbackParamOptions = {}): Promise<CallbackParams | null> {
  const errorId = opts.errorId ?? 'bad_request';
  const fail = (message: string, field: string) => new ApiError(errorId, message, { field });
  const { callback_url: url, callback_headers: headers, callback_events: events } = input;
  if (url === undefined) {
    if (headers !== undefined) throw fail('callback_headers needs callback_url', 'callback_headers');
    if (events !== undefined) throw fail('callback_events needs callback_url', 'callback_events');
    return null;
  }
  if (typeof url !== 'string' || url.trim() === '') throw fail('callback_url must be a non-empty string', 'callback_url');
  if (url.length > MAX_CALLBACK_URL_LENGTH) throw fail(`callback_url is longer than ${MAX_CALLBACK_URL_LENGTH} characters`, 'callback_url');
  let checked: URL;
  try {
    const schemes = opts.allowPrivate ? ['https:', 'http:'] : ['https:'];
    ({ url: checked } = await checkUrl(url, { schemes, allowPrivate: opts.allowPrivate, resolve: opts.resolve }));
  } catch (err) {
    if (err instanceof ApiError) throw fail(`callback_url: ${err.message}`, 'callback_url');
    throw err;
  }
  return { url: checked.href, headers: parseHeaders(headers, fail), events: parseEvents(events, fail) };
}

type Fail = (message: string, field: string) => ApiError;

/** callback_headers: a plain object of string values, HTTP token names, not reserved, within limits. */
function parseHeaders(headers: unknown, fail: Fail): Record<string, string> {
  if (headers === undefined) return {};
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers))
    throw fail('callback_headers must be an object of strings', 'callback_headers');
  const entries = Object.entries(headers as Record<string, unknown>);
  if (entries.length > MAX_CALLBACK_HEADERS) throw fail(`callback_headers has more than ${MAX_CALLBACK_HEADERS} headers`, 'callback_headers');
  const seen = new Set<string>();
  let bytes = 0;
  for (const [name, value] of entries) {
    if (typeof value !== 'string') throw fail(`callback_headers.${name} must be a string`, 'callback_headers');
    if (!HTTP_TOKEN.test(name)) throw fail(`callback_headers: "${name}" is not a valid header name`, 'callback_headers');
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower) || lower.startsWith('service-')) throw fail(`callback_headers: ${name} is reserved`, 'callback_headers');
    // Header names are case-insensitive: X-A and x-a would both go out as one field.
    if (seen.has(lower)) throw fail(`callback_headers: ${name} is given twice`, 'callback_headers');
    seen.add(lower);
    if (!FIELD_VALUE.test(value)) throw fail(`callback_headers.${name} contains control characters`, 'callback_headers');
    bytes += Buffer.byteLength(name) + Buffer.byteLength(value);
  }
  if (bytes > MAX_CALLBACK_HEADER_BYTES) throw fail(`callback_headers exceed ${MAX_CALLBACK_HEADER_BYTES} bytes`, 'callback_headers');
  return Object.fromEntries(entries) as Record<string, string>;
}

function parseEvents(events: unknown, fail: Fail): CallbackEvent[] | undefined {
  if (events === undefined) return undefined;
  if (!Array.isArray(events)) throw fail('callback_events must be an array of event names', 'callback_events');
  for (const e of events) {
    if (!(CALLBACK_EVENTS as readonly unknown[]).includes(e)) {
      throw fail(`callback_events: ${JSON.stringify(e)} is not one of ${CALLBACK_EVENTS.join(', ')}`, 'callback_events');
    }
  }
  return [...new Set(events as CallbackEvent[])];
}
