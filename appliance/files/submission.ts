import { ApiError } from '../../core/errors.js';
import { extensionOfFormat } from '../../core/options/pdf-options.js';
import { rootUriOf } from '../../core/storage/index.js';
import { checkUrl, type Resolver } from '../../core/ssrf.js';
import { parseSubmission } from '../http/v3/submission.js';
import { type CallbackEvent, parseCallbackParams } from '../webhooks/callback-params.js';
import type { NewFile } from './ledger.js';
import { BASE_OUTPUTS, classifySource, planDestination, type SourceKind } from './uris.js';

/** custom_id: at most 256 characters of A-Z a-z 0-9 _ - . : ; (spec 2.10). job_ids we accept follow the same rule. */
export const CUSTOM_ID = /^[A-Za-z0-9_\-.:;]{1,256}$/;
/** Idempotency-Key header: at most 256 characters of A-Z a-z 0-9 _ - . : (spec 4.9). */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_\-.:]{1,256}$/;
export const MAX_FILENAME_LENGTH = 1024;
const S3_REGION = /^[a-z]{2}(-[a-z0-9]+){1,4}$/;

/** Default events (spec 6.1): a single document gets both file events, a batch job.completed only. */
export const SINGLE_FILE_EVENTS: CallbackEvent[] = ['file.completed', 'file.error'];
export const BATCH_EVENTS: CallbackEvent[] = ['job.completed'];

export interface FilesCallback {
  url: string;
  headers: Record<string, string>;
  events: CallbackEvent[];
}

/** What one submission applies to all of its files. */
export interface SubmissionSettings {
  /** v3/pdf options plus conversion_formats, as the document record keeps them. */
  requestArgs: Record<string, unknown>;
  conversionFormats: Record<string, boolean>;
  imageOutputMode: 'local' | null;
  callback: FilesCallback | null;
}

export interface CheckOptions {
  allowPrivate: boolean;
  azureEmulator?: boolean;
  resolve?: Resolver;
}

const bad = (message: string, field: string) => new ApiError('bad_request', message, { field });

/**
 * Validates the submission-wide part of a Files API body: every v3/pdf option (unknown keys are
 * refused), conversion_formats, image_output_mode and the callback parameters (7.3). `rest` is
 * the body without the fields of the files themselves.
 */
export async function parseSettings(rest: Record<string, unknown>, batch: boolean, opts: CheckOptions): Promise<SubmissionSettings> {
  const { image_output_mode, callback_url, callback_headers, callback_events, ...options } = rest;
  if (image_output_mode !== undefined && image_output_mode !== null && image_output_mode !== 'local') {
    throw bad('image_output_mode must be local or unset', 'image_output_mode');
  }
  const parsed = await parseSubmission(options, { allowPrivate: opts.allowPrivate, resolve: opts.resolve });
  const cb = await parseCallbackParams(
    { callback_url, callback_headers, callback_events },
    { errorId: 'bad_request', allowPrivate: opts.allowPrivate, resolve: opts.resolve },
  );
  const hasFormats = Object.keys(parsed.conversionFormats).length > 0;
  return {
    requestArgs: { ...parsed.options, ...(hasFormats ? { conversion_formats: parsed.conversionFormats } : {}) },
    conversionFormats: parsed.conversionFormats,
    imageOutputMode: image_output_mode === 'local' ? 'local' : null,
    callback: cb ? { url: cb.url, headers: cb.headers, events: cb.events ?? (batch ? BATCH_EVENTS : SINGLE_FILE_EVENTS) } : null,
  };
}

/** The per-file fields of a FileSubmission (spec 2.10) or of POST /files/v1/uri. */
export interface FileFields {
  source_uri?: unknown;
  filename?: unknown;
  custom_id?: unknown;
  destination_uri?: unknown;
  destination_basename?: unknown;
  s3_region?: unknown;
}

export interface PlannedFile {
  file: NewFile;
  source: SourceKind | null;
  /** Bucket root of destination_uri, when given. */
  destinationRoot: string | null;
}

/**
 * Validates one file's fields and names its outputs. Throws ApiError on the first problem: a
 * single-file request answers it, a batch turns it into an errored file (spec 4.10).
 * `upload` is set for POST /files/v1, whose source is already in Folio's store.
 */
export function planFile(
  fileId: string,
  f: FileFields,
  settings: SubmissionSettings,
  opts: CheckOptions,
  upload?: { key: string; filename: string },
): PlannedFile {
  const source = upload ? null : classifySource(f.source_uri, opts);
  if (f.custom_id !== undefined && (typeof f.custom_id !== 'string' || !CUSTOM_ID.test(f.custom_id))) {
    throw bad('custom_id must be 1 to 256 characters of A-Z a-z 0-9 _ - . : ;', 'custom_id');
  }
  const filename = optionalString(f.filename, 'filename', MAX_FILENAME_LENGTH) ?? (upload?.filename || `${fileId}.pdf`);
  const basename = optionalString(f.destination_basename, 'destination_basename', 1024);
  if (basename !== undefined && (basename.includes('/') || basename === '.' || basename === '..'))
    throw bad('destination_basename must not contain /', 'destination_basename');
  const region = optionalString(f.s3_region, 's3_region', 32);
  if (region !== undefined && !S3_REGION.test(region)) throw bad('s3_region is not a region name such as us-east-1', 's3_region');
  let destinationUri: string | undefined;
  let destinationRoot: string | null = null;
  let outputBasename = basename ?? fileId;
  if (f.destination_uri !== undefined && f.destination_uri !== null) {
    const exts = [
      ...BASE_OUTPUTS,
      ...Object.keys(settings.conversionFormats)
        .filter((e) => settings.conversionFormats[e])
        .map(extensionOfFormat),
    ];
    const d = planDestination(f.destination_uri, outputBasename, exts, opts);
    destinationUri = d.uri;
    destinationRoot = rootUriOf(d.location);
    outputBasename = d.basename;
  } else if (basename !== undefined || region !== undefined) {
    throw bad('destination_basename and s3_region need destination_uri', basename !== undefined ? 'destination_basename' : 's3_region');
  }
  return {
    source,
    destinationRoot,
    file: {
      file_id: fileId,
      filename,
      output_basename: outputBasename,
      custom_id: (f.custom_id as string | undefined) ?? null,
      source_uri: source ? (source.kind === 'public' ? source.url : source.uri) : null,
      upload_key: upload?.key ?? null,
      destination_uri: destinationUri ?? null,
      destination_basename: basename ?? null,
      s3_region: destinationUri ? (region ?? 'us-east-1') : null,
    },
  };
}

function optionalString(v: unknown, field: string, max: number): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || !v.trim() || v.length > max || /[\u0000-\u001f\u007f]/.test(v))
    throw bad(`${field} must be 1 to ${max} printable characters`, field);
  return v;
}

/** Idempotency-Key header value, validated, or undefined when absent. */
export function idempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(header)) throw bad('Idempotency-Key must be 1 to 256 characters of A-Z a-z 0-9 _ - . :', 'Idempotency-Key');
  return header;
}

/** A top-level job_id, validated, or undefined when absent. */
export function jobIdField(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || !CUSTOM_ID.test(v)) throw bad('job_id must be 1 to 256 characters of A-Z a-z 0-9 _ - . : ;', 'job_id');
  return v;
}

/** The submit-time SSRF check of a public source; a name that does not resolve yet is left to the fetch. */
export async function checkPublicUrl(url: string, checks: CheckOptions): Promise<void> {
  try {
    await checkUrl(url, { schemes: checks.allowPrivate ? ['https:', 'http:'] : ['https:'], allowPrivate: checks.allowPrivate, resolve: checks.resolve });
  } catch (err) {
    if (!(err instanceof ApiError) || !err.retryable) throw new ApiError('bad_request', `source_uri: ${(err as Error).message}`, { field: 'source_uri' });
  }
}
