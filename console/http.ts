/** How long one call may take before the CLI gives up on the appliance. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** A failure the CLI reports and exits on; `exitCode` is what the process ends with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** An error answer of the appliance, read from its `{error, error_info: {id, message}}` envelope. */
export class ApiFailure extends CliError {
  constructor(
    readonly id: string,
    readonly detail: string,
    readonly status: number,
    readonly body: unknown,
    readonly requestId: string | null,
  ) {
    super(`error ${id}: ${detail}`, 1, hintFor(id, requestId));
    this.name = 'ApiFailure';
  }
}

/** One line an operator can act on, per error id the private-cloud surface answers with. */
const HINTS: Record<string, string> = {
  bad_request: 'the request was refused as malformed; check the arguments (`folio help <command>`)',
  not_found: 'nothing exists at that path or id; check the id (and that --url points at a Folio appliance)',
  job_not_found: 'the job was deleted or has expired (records live 30 days); `folio jobs list` shows the jobs that exist',
  job_not_retryable: 'only finished jobs that were not cancelled can be retried, and only when they have failed files (matching --error-id)',
  input_folder_required: 'give --input with a folder URI that ends in "/"',
  input_folder_or_files: 'give either input.folder or input.files (1 to 10,000 object URIs), not both; input.files needs --output',
  input_folder_unreadable: "check the folder URI and the appliance's storage credentials",
  output_folder_unwritable: "check the output folder URI and that the appliance's storage credentials may write there",
  invalid_layout: 'layouts are alongside (output folder = input folder, the default), mirror and flat',
  invalid_options: 'check options.* in the body (conversion_formats, extra_outputs, ocr)',
  invalid_policy: 'priority is low, normal or high; check the other policy.* limits in the body',
  invalid_callback: 'callback_url must be https and public; callback_events are job.completed, file.error, file.completed',
  unsupported_uri_scheme: 'use an s3://, gs:// or Azure Blob https:// folder URI',
  opts_section_numbering: 'set at most one of the section numbering options in options.ocr',
  license_unverified: 'run `folio license` to see why the licence check fails; new jobs are refused until a check succeeds',
  storage_throttled: 'the storage provider is throttling the appliance; retry in a little while',
  sys_request_too_large: 'the request body is too large for the endpoint',
  sys_exception: 'internal error on the appliance; look for the request id in its logs',
};

function hintFor(id: string, requestId: string | null): string | undefined {
  const hint = HINTS[id];
  if (id === 'sys_exception' && requestId) return `${hint} (request id ${requestId})`;
  return hint;
}

export interface Reply<T> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Statuses that are answers rather than failures (GET /health answers 503 when degraded). */
  accept?: number[];
}

/** A small HTTP client for the appliance's operator surface; every error leaves as a CliError. */
export class FolioClient {
  readonly base: string;

  constructor(url: string) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new CliError(`not a URL: ${url}`, 1, 'give --url (or FOLIO_URL) as http://host:port');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new CliError(`not an http(s) URL: ${url}`);
    this.base = parsed.href.replace(/\/+$/, '');
  }

  /** Sends one request and returns the raw response, the body not yet read. */
  async raw(method: string, path: string, opts: RequestOptions = {}): Promise<Response> {
    const url = new URL(this.base + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const hasBody = opts.body !== undefined;
    try {
      return await fetch(url, {
        method,
        headers: hasBody ? { 'content-type': 'application/json' } : {},
        body: hasBody ? JSON.stringify(opts.body) : undefined,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      throw this.transportError(err);
    }
  }

  /** Sends one request; a non-2xx answer (outside `accept`) throws ApiFailure. */
  async call<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<Reply<T>> {
    const res = await this.raw(method, path, opts);
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      throw this.transportError(err);
    }
    const body = parseBody(text);
    if (!res.ok && !opts.accept?.includes(res.status)) throw failureOf(res, body, text);
    return { status: res.status, body: body as T, text, headers: res.headers };
  }

  /** Throws ApiFailure for a non-2xx response whose body has not been read yet. */
  async ensureOk(res: Response): Promise<Response> {
    if (res.ok) return res;
    const text = await res.text().catch(() => '');
    throw failureOf(res, parseBody(text), text);
  }

  private transportError(err: unknown): CliError {
    const e = err as { name?: string; cause?: { code?: string; message?: string } };
    if (e?.name === 'TimeoutError') return new CliError(`the appliance at ${this.base} did not answer within ${REQUEST_TIMEOUT_MS / 1000} s`);
    const code = e?.cause?.code ?? e?.cause?.message ?? String(err);
    return new CliError(`cannot reach the appliance at ${this.base} (${code})`, 1, 'is it running? point the CLI at it with --url or FOLIO_URL');
  }
}

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Reads the error envelope; a gateway's HTML page or other non-envelope body becomes http_<status>. */
function failureOf(res: Response, body: unknown, text: string): ApiFailure {
  const requestId = res.headers.get('x-request-id');
  const env = body as { error?: unknown; error_info?: { id?: unknown; message?: unknown } } | null;
  if (env && typeof env === 'object' && typeof env.error === 'string') {
    const message = typeof env.error_info?.message === 'string' ? env.error_info.message : res.statusText;
    return new ApiFailure(env.error, message, res.status, body, requestId);
  }
  const firstLine = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
  return new ApiFailure(`http_${res.status}`, firstLine || res.statusText || 'no body', res.status, body, requestId);
}

/** Prints a failure as `error <id>: <message>` plus its hint to stderr (and the raw envelope to stdout with --json). */
export function printFailure(err: unknown, json = false): number {
  if (err instanceof CliError) {
    if (json && err instanceof ApiFailure && err.body && typeof err.body === 'object') process.stdout.write(`${JSON.stringify(err.body, null, 2)}\n`);
    process.stderr.write(`${err.message}\n`);
    if (err.hint) process.stderr.write(`hint: ${err.hint}\n`);
    return err.exitCode;
  }
  process.stderr.write(`folio: ${err instanceof Error ? err.message : String(err)}\n`);
  return 1;
}
