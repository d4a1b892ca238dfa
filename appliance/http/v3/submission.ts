import type { z } from 'zod';
import { ApiError } from '../../../core/errors.js';
import { documentConversionFormatsSchema, type PdfOptions, pdfOptionsSchema } from '../../../core/options/pdf-options.js';
import { checkUrl, type Resolver } from '../../../core/ssrf.js';
import { DOCUMENT_URL_SCHEMES } from '../../../core/v3/source.js';
import { parseCallbackParams } from '../../webhooks/callback-params.js';

/** A single document's notifications when callback_events is absent (spec 6.1). */
export const DEFAULT_PDF_EVENTS = ['file.completed', 'file.error'];

export interface PdfSubmission {
  url?: string;
  options: PdfOptions;
  conversionFormats: Record<string, boolean>;
  /** Validated callback; events defaulted for a single document. Null: nothing is sent. */
  callback: { url: string; headers: Record<string, string>; events: string[] } | null;
}

export interface SubmissionOptions {
  /** FOLIO_ALLOW_PRIVATE_URLS: lab mode lets url and callback_url reach private addresses. */
  allowPrivate: boolean;
  resolve?: Resolver;
}

/** Zod issues as one message; the section-numbering rule keeps its own id (spec 4.7). */
export function optionsError(error: z.ZodError): ApiError {
  const numbering = error.issues.find((i) => i.code === 'custom' && (i.params as { id?: string } | undefined)?.id === 'opts_section_numbering');
  if (numbering) return new ApiError('opts_section_numbering', numbering.message);
  const message = error.issues
    .map((i) =>
      i.code === 'unrecognized_keys' ? `unknown option${i.keys.length > 1 ? 's' : ''} ${i.keys.join(', ')}` : `${i.path.join('.') || 'options'}: ${i.message}`,
    )
    .join('; ');
  return new ApiError('bad_request', message);
}

/** Parses options_json of a multipart upload: a JSON object or nothing. */
export function parseOptionsJson(text: string | undefined): Record<string, unknown> {
  if (text === undefined || !text.trim()) return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new ApiError('bad_request', 'options_json is not valid JSON', { field: 'options_json' });
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ApiError('bad_request', 'options_json must be a JSON object', { field: 'options_json' });
  return v as Record<string, unknown>;
}

/**
 * Validates a POST /v3/pdf body (JSON, or a multipart upload's options_json): the 4.7 options
 * (unknown keys refused), conversion_formats, the callback parameters (7.3) and the url, which is
 * checked against the SSRF rules now and again when the worker fetches it. Nothing is created here.
 */
export async function parseSubmission(raw: unknown, opts: SubmissionOptions): Promise<PdfSubmission> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ApiError('bad_request', 'Body must be a JSON object');
  const { url, conversion_formats, callback_url, callback_headers, callback_events, ...rest } = raw as Record<string, unknown>;
  const parsed = pdfOptionsSchema.safeParse(rest);
  if (!parsed.success) throw optionsError(parsed.error);
  let conversionFormats: Record<string, boolean> = {};
  if (conversion_formats !== undefined) {
    const f = documentConversionFormatsSchema.safeParse(conversion_formats);
    if (!f.success)
      throw new ApiError('bad_request', `conversion_formats: ${f.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`, {
        field: 'conversion_formats',
      });
    conversionFormats = f.data;
  }
  const cb = await parseCallbackParams(
    { callback_url, callback_headers, callback_events },
    { errorId: 'bad_request', allowPrivate: opts.allowPrivate, resolve: opts.resolve },
  );
  const callback = cb ? { ...cb, events: cb.events ?? DEFAULT_PDF_EVENTS } : null;
  if (url === undefined) return { options: parsed.data, conversionFormats, callback };
  if (typeof url !== 'string' || !url.trim()) throw new ApiError('bad_request', 'url must be a non-empty string', { field: 'url' });
  try {
    await checkUrl(url, { schemes: DOCUMENT_URL_SCHEMES, allowPrivate: opts.allowPrivate, resolve: opts.resolve });
  } catch (err) {
    // A name that does not resolve now may later: the worker's fetch decides (pdf_download_error).
    if (!(err instanceof ApiError) || !err.retryable) throw new ApiError('bad_request', `url: ${(err as Error).message}`, { field: 'url' });
  }
  return { url, options: parsed.data, conversionFormats, callback };
}
