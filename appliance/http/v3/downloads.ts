import { Readable } from 'node:stream';
import type { Context } from 'hono';
import { ApiError } from '../../../core/errors.js';
import { DOCUMENT_CONVERSION_FORMATS, extensionOfFormat, formatOfExtension } from '../../../core/options/pdf-options.js';
import { type Storage, StorageError } from '../../../core/storage/index.js';
import type { FormatStatus } from '../../../core/v3/pdf-store.js';
import { CONTENT_TYPES } from '../../../core/content-types.js';

/** Outputs of every completed document, requested or not (4.9: lines data is ready with the MMD). */
export const DOCUMENT_BASE_FORMATS = ['mmd', 'md', 'lines.json', 'lines.mmd.json'] as const;
/** A conversion's MMD is its input; md is the same text unless md was requested as a format. */
export const CONVERSION_BASE_FORMATS = ['mmd', 'md'] as const;
const CONVERSION_EXTS = new Set<string>(DOCUMENT_CONVERSION_FORMATS.map(extensionOfFormat));

/** What a download request comes to: an object to send, not ready yet (404), or 415. */
export type Download = { kind: 'object'; key: string } | { kind: 'not_ready'; message: string } | { kind: 'unsupported'; message: string };

/**
 * Download rules of spec 4.9 applied to /v3/pdf and /v3/converter: an extension we never make,
 * or a conversion format that was not requested, is 415 unsupported_format; a format not
 * completed is 404 format_not_ready; a format whose conversion this build cannot make is 415.
 *
 * @param baseReady whether the MMD (and line data) exist yet
 * @param keyOf storage key of an extension's object
 */
export function resolveDownload(
  ext: string,
  opts: { base: readonly string[]; baseReady: boolean; formats: Record<string, FormatStatus>; keyOf: (ext: string) => string },
): Download {
  const requested = opts.formats[formatOfExtension(ext)];
  if (requested) {
    if (requested.status === 'completed') return { kind: 'object', key: opts.keyOf(ext) };
    if (requested.error_id === 'unsupported_format') return { kind: 'unsupported', message: requested.error_message ?? `This build cannot make ${ext}` };
    if (requested.status === 'error') return { kind: 'not_ready', message: `The ${ext} format failed: ${requested.error_message ?? requested.error_id}` };
    return { kind: 'not_ready', message: `The ${ext} format is ${requested.status}` };
  }
  if (opts.base.includes(ext)) {
    if (!opts.baseReady) return { kind: 'not_ready', message: `The ${ext} output is not ready` };
    return { kind: 'object', key: opts.keyOf(ext === 'md' ? 'mmd' : ext) };
  }
  if (CONVERSION_EXTS.has(ext)) return { kind: 'unsupported', message: `${ext} was not requested in the conversion formats` };
  return { kind: 'unsupported', message: `Unknown extension ${ext}` };
}

/** Streams one object of Folio's store with the extension's Content-Type and a <id>.<ext> filename. */
export async function sendObject(c: Context, storage: Storage, key: string, ext: string, basename: string): Promise<Response> {
  let body: Readable;
  try {
    body = await storage.read(key);
  } catch (err) {
    // Outputs removed under a live record (a DELETE racing this read, or a pruned store).
    if (err instanceof StorageError && err.kind === 'not_found') throw new ApiError('not_found', `No ${ext} output`);
    throw err;
  }
  return c.body(Readable.toWeb(body) as unknown as ReadableStream, 200, {
    'content-type': CONTENT_TYPES[ext] ?? 'application/octet-stream',
    'content-disposition': `attachment; filename="${basename}.${ext}"`,
  });
}
