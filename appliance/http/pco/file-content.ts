import { Readable } from 'node:stream';
import type { Context } from 'hono';
import { ApiError } from '../../../core/errors.js';
import { TERMINAL_FILE_STATUSES } from '../../../core/pco/job-spec.js';
import type { FileRecord } from '../../../core/pco/store.js';
import { openLocation, type StorageSettings, StorageError } from '../../../core/storage/index.js';
import { CONTENT_TYPES } from '../../../core/content-types.js';

/** Generic types of the source documents a job can read; anything else is sent as bytes. */
const SOURCE_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  doc: 'application/msword',
  ppt: 'application/vnd.ms-powerpoint',
  odt: 'application/vnd.oasis.opendocument.text',
  txt: 'text/plain; charset=utf-8',
};

/** The file name of a key without folders: "sub/report.pdf" → "report.pdf". */
const fileNameOf = (key: string) => key.slice(key.lastIndexOf('/') + 1) || 'document';
/** "report.pdf" → "report"; a name without extension is kept whole. */
const stemOf = (name: string) => (name.lastIndexOf('.') > 0 ? name.slice(0, name.lastIndexOf('.')) : name);

/** inline; filename="…" with the name made header-safe (filename* carries non-ASCII names exactly). */
export function inlineDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return ascii === name ? `inline; filename="${name}"` : `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The Content-Type a source document is served with, from its extension. */
export function sourceContentType(key: string): string {
  const name = fileNameOf(key);
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  return SOURCE_TYPES[ext] ?? 'application/octet-stream';
}

/**
 * Opens an object named by one of the job's own records (its source URI or a recorded output), so
 * the URI never comes from the caller: no SSRF question. A vanished object is not_found.
 */
async function openRecorded(uri: string, settings: StorageSettings, what: string): Promise<Readable> {
  try {
    const { storage, location } = openLocation(uri, settings);
    return await storage.read(location.key);
  } catch (err) {
    if (err instanceof StorageError && err.kind === 'not_found') throw new ApiError('not_found', `The ${what} is no longer in storage`);
    throw err;
  }
}

const send = (c: Context, body: Readable, type: string, name: string) =>
  c.body(Readable.toWeb(body) as unknown as ReadableStream, 200, {
    'content-type': type,
    'content-disposition': inlineDisposition(name),
    'cache-control': 'no-store',
  });

/** Streams output `ext` of a file: 404 format_not_ready while the file is still in flight, else 404 not_found when not recorded. */
export async function sendFileOutput(c: Context, f: FileRecord, ext: string, settings: StorageSettings): Promise<Response> {
  const uri = Object.hasOwn(f.outputs ?? {}, ext) ? f.outputs[ext] : undefined;
  if (!uri) {
    if (!TERMINAL_FILE_STATUSES.includes(f.status))
      throw new ApiError('format_not_ready', `The ${ext} output of ${f.key} is not ready: the file is ${f.status}`);
    throw new ApiError('not_found', `No ${ext} output is recorded for ${f.key}`);
  }
  const body = await openRecorded(uri, settings, `${ext} output`);
  return send(c, body, CONTENT_TYPES[ext] ?? 'application/octet-stream', `${stemOf(fileNameOf(f.key))}.${ext}`);
}

/** Streams the source document the file was read from. */
export async function sendFileSource(c: Context, f: FileRecord, settings: StorageSettings): Promise<Response> {
  const body = await openRecorded(f.sourceUri, settings, 'source document');
  return send(c, body, sourceContentType(f.key), fileNameOf(f.key));
}
