import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The closed set of error ids: spec part 7.2 plus the private-cloud ids. */
export const ERROR_STATUS = {
  bad_request: 400,
  destination_uri_too_long: 400,
  unauthorized: 401,
  forbidden: 403,
  job_finalized: 409,
  conflict: 409,
  not_found: 404,
  data_source_not_found: 404,
  data_source_access_denied: 403,
  format_not_ready: 404,
  unsupported_format: 415,
  quota_exceeded: 429,
  storage_throttled: 503,
  http_max_requests: 429,
  sys_request_too_large: 413,
  image_download_error: 200,
  image_decode_error: 200,
  sys_exception: 500,
  pdf_download_error: 200,
  pdf_page_limit_exceeded: 200,
  cnv_unknown_id: 200,
  // GET/DELETE /v3/app-tokens/{token} of a token unknown, expired or deleted (the hosted service answers 200)
  token_unknown: 200,
  math_confidence: 200,
  opts_section_numbering: 400,
  opts_unknown_data_option: 400,
  opts_bad_page_range: 400,
  content_too_large: 413,
  license_unverified: 503,
  // private cloud, submission time
  input_folder_required: 400,
  input_folder_or_files: 400,
  input_folder_unreadable: 400,
  output_folder_unwritable: 400,
  invalid_layout: 400,
  invalid_options: 400,
  invalid_policy: 400,
  invalid_callback: 400,
  unsupported_uri_scheme: 400,
  // private cloud, later
  job_not_found: 404,
  job_not_retryable: 409,
  // file level (recorded on files, never an HTTP answer of their own)
  pdf_content_type: 415,
  cancelled: 409,
  page_timeout: 504,
  pdf_encrypted: 422,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorId = keyof typeof ERROR_STATUS;
export const ERROR_IDS = Object.keys(ERROR_STATUS) as ErrorId[];

export function isErrorId(v: unknown): v is ErrorId {
  return typeof v === 'string' && Object.hasOwn(ERROR_STATUS, v);
}

/** The one error class of the API. `extras` are merged into error_info (url, max_limit, limit_name…). */
export class ApiError extends Error {
  constructor(
    readonly id: ErrorId,
    message: string,
    readonly extras: Record<string, unknown> = {},
    /** Worker side: whether retrying the same input can help. */
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get status(): ContentfulStatusCode {
    return ERROR_STATUS[this.id];
  }

  toBody(): ErrorBody {
    return envelope(this.id, this.message, this.extras);
  }
}

export interface ErrorBody {
  error: ErrorId;
  error_info: { id: ErrorId; message: string; [k: string]: unknown };
}

export function envelope(id: ErrorId, message: string, extras: Record<string, unknown> = {}): ErrorBody {
  return { error: id, error_info: { ...extras, id, message } };
}

/** Turns anything thrown into an ApiError; unknown errors become sys_exception without internals. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  return new ApiError('sys_exception', 'Internal error');
}
