import { z } from 'zod';
import { ApiError } from '../../../core/errors.js';
import type { BatchItem } from '../../../core/v3/batch-store.js';
import { checkBeam, latexParamsSchema, zodBadRequest } from './latex-options.js';
import { type LegacyCallback, legacyCallbackSchema } from './legacy-callback.js';
import { parseTextOptions } from './text-options.js';

/** Images one batch may hold. The spec sets no number; this keeps one record well under Redis's limits. */
export const MAX_BATCH_URLS = 1000;
/**
 * formats when neither the batch nor the image names any (v3/latex requires them; a batch often
 * omits them): latex_styled, and the legacy `latex` field clients of the batch read (latex_normal).
 */
export const DEFAULT_BATCH_FORMATS = ['latex_styled', 'latex_normal'];

const urlEntry = z.union([z.string().min(1), z.object({ url: z.string().min(1), options: z.record(z.unknown()).optional() }).passthrough()]);

const batchSchema = z
  .object({
    urls: z
      .record(urlEntry)
      .refine((u) => Object.keys(u).length >= 1, 'needs at least one url')
      .refine((u) => Object.keys(u).length <= MAX_BATCH_URLS, `at most ${MAX_BATCH_URLS} urls`),
    ocr_behavior: z.enum(['latex', 'text']).default('latex'),
    callback: legacyCallbackSchema.optional(),
    metadata: z.record(z.unknown()).optional(),
  })
  .passthrough();

export interface BatchSubmission {
  ocrBehavior: 'latex' | 'text';
  items: BatchItem[];
  callback?: LegacyCallback;
}

/**
 * Validates POST /v3/batch (4.5): urls maps a key to a URL, or to {url, …per-image options}
 * (or {url, options: {…}}); every other top-level key is a v3/latex parameter (ocr_behavior
 * latex, default) or a v3/text parameter (ocr_behavior text) applied to every image, and a
 * per-image option overrides it. Each image's options are validated as that endpoint's, so a bad
 * one fails the whole submission with bad_request naming urls.<key>.
 */
export function parseBatch(raw: unknown): BatchSubmission {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ApiError('bad_request', 'The body must be a JSON object');
  const parsed = batchSchema.safeParse(raw);
  if (!parsed.success) throw zodBadRequest(parsed.error);
  const { urls, ocr_behavior, callback, ...shared } = parsed.data;
  if ('src' in shared) throw new ApiError('bad_request', 'A batch takes urls, not src', { field: 'src' });
  const items = Object.entries(urls).map(([key, entry]): BatchItem => {
    const { url, options: nested, ...inline } = typeof entry === 'string' ? { url: entry } : entry;
    // A base64 data URL is an image too, as for /v3/text src (2 MB, part 8).
    if (!/^(https?:\/\/|data:image\/)/i.test(url))
      throw new ApiError('bad_request', `urls.${key}: must be an http(s) URL or a data:image/… base64 URL`, { field: `urls.${key}` });
    const merged = { ...shared, ...inline, ...(nested ?? {}) };
    try {
      if (ocr_behavior === 'text') return { key, url, options: parseTextOptions(merged) };
      return { key, url, options: latexParams(merged), ...(merged.formats === undefined ? { legacyLatex: true } : {}) };
    } catch (err) {
      if (err instanceof ApiError) throw new ApiError(err.id, `urls.${key}: ${err.message}`, { ...err.extras, field: `urls.${key}` });
      throw err;
    }
  });
  return { ocrBehavior: ocr_behavior, items, ...(callback ? { callback } : {}) };
}

function latexParams(raw: Record<string, unknown>): Record<string, unknown> {
  const parsed = latexParamsSchema.safeParse({ formats: DEFAULT_BATCH_FORMATS, ...raw });
  if (!parsed.success) throw zodBadRequest(parsed.error);
  checkBeam(parsed.data);
  return parsed.data;
}
