import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../../core/errors.js';
import { GuardedFetchError, guardedFetch } from '../../core/ssrf.js';
import { DOWNLOAD_TIMEOUT_MS, MAX_DOCUMENT_BYTES } from '../../core/v3/keys.js';
import { DOCUMENT_URL_SCHEMES } from '../../core/v3/source.js';
import type { PdfRecord } from '../../core/v3/pdf-store.js';
import type { WorkerContext } from '../context.js';

/**
 * Puts the document's bytes at `target`: an upload from Folio's store, or a URL fetched through
 * the SSRF guard within 60 s. Download problems are pdf_download_error with error_info.url;
 * network errors and 5xx answers may be retried, the rest cannot get better.
 */
export async function fetchSource(ctx: WorkerContext, rec: PdfRecord, target: string): Promise<void> {
  if (rec.source.kind === 'upload') {
    await pipeline(await ctx.storage.read(rec.source.key), createWriteStream(target));
    return;
  }
  const url = rec.source.url;
  const fail = (message: string, retryable = false) => new ApiError('pdf_download_error', message, { url }, retryable);
  let res: Response;
  try {
    res = await guardedFetch(url, {}, {
      allowPrivate: ctx.config.FOLIO_ALLOW_PRIVATE_URLS,
      schemes: DOCUMENT_URL_SCHEMES,
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
      maxBodyBytes: MAX_DOCUMENT_BYTES,
    });
  } catch (err) {
    if (err instanceof ApiError) throw fail(`The URL was refused: ${err.message}`, err.retryable);
    if (err instanceof GuardedFetchError) {
      if (err.kind === 'timeout') throw fail(`Document download exceeded ${DOWNLOAD_TIMEOUT_MS / 1000} seconds`);
      if (err.kind === 'too_large') throw fail(`The document is larger than ${MAX_DOCUMENT_BYTES} bytes`);
      throw fail(`The document could not be fetched: ${err.message}`, true);
    }
    throw err;
  }
  if (res.status < 200 || res.status > 299) throw fail(`The document URL answered HTTP ${res.status}`, res.status >= 500);
  await writeFile(target, Buffer.from(await res.arrayBuffer()));
}
