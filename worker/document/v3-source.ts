import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../../core/errors.js';
import { GuardedFetchError, guardedFetch } from '../../core/ssrf.js';
import { DOWNLOAD_TIMEOUT_MS, MAX_DOCUMENT_BYTES } from '../../core/v3/keys.js';
import { DOCUMENT_URL_SCHEMES } from '../../core/v3/source.js';
import type { PdfRecord } from '../../core/v3/pdf-store.js';
import type { WorkerContext } from '../context.js';

/**
 * Puts the document's bytes at `target`: an upload from Folio's store, or a URL fetched through
 * the SSRF guard within 60 s. For /v3/pdf, download problems are pdf_download_error with
 * error_info.url; network errors and 5xx answers may be retried, the rest cannot get better. A
 * Files API source names each failure by whether a retry can help (filesFetchError).
 */
export async function fetchSource(ctx: WorkerContext, rec: PdfRecord, target: string): Promise<void> {
  if (rec.source.kind === 'upload') {
    await pipeline(await ctx.storage.read(rec.source.key), createWriteStream(target));
    return;
  }
  const url = rec.source.url;
  const fail = (message: string, retryable = false, status?: number) =>
    rec.origin === 'files' ? filesFetchError(message, url, retryable, status) : new ApiError('pdf_download_error', message, { url }, retryable);
  let res: Response;
  try {
    res = await guardedFetch(
      url,
      {},
      {
        allowPrivate: ctx.config.FOLIO_ALLOW_PRIVATE_URLS,
        schemes: DOCUMENT_URL_SCHEMES,
        timeoutMs: DOWNLOAD_TIMEOUT_MS,
        maxBodyBytes: MAX_DOCUMENT_BYTES,
        saveTo: target,
      },
    );
  } catch (err) {
    if (err instanceof ApiError) throw fail(`The URL was refused: ${err.message}`, err.retryable);
    if (err instanceof GuardedFetchError) {
      if (err.kind === 'timeout') throw fail(`Document download exceeded ${DOWNLOAD_TIMEOUT_MS / 1000} seconds`);
      if (err.kind === 'too_large') throw fail(`The document is larger than ${MAX_DOCUMENT_BYTES} bytes`, false, 413);
      throw fail(`The document could not be fetched: ${err.message}`, true);
    }
    throw err;
  }
  if (res.status < 200 || res.status > 299) throw fail(`The document URL answered HTTP ${res.status}`, res.status >= 500 || res.status === 429, res.status);
}

/**
 * A Files API source's failure as the spec 7.2 id that tells the client what to do: the object is
 * absent (404, 410: not_found, a resubmission cannot help), access is refused (401, 403, an
 * expired signed URL: data_source_access_denied), the source is too large (content_too_large),
 * the host is throttling or overloaded (429, 503: storage_throttled, retry with backoff); any other
 * answer, timeout or network failure stays pdf_download_error, retried here while it may pass.
 */
export function filesFetchError(message: string, url: string, retryable: boolean, status?: number): ApiError {
  if (status === 404 || status === 410) return new ApiError('not_found', `${message}: the object does not exist`, { url });
  if (status === 401 || status === 403) return new ApiError('data_source_access_denied', `${message}: access was refused`, { url });
  if (status === 413) return new ApiError('content_too_large', message, { url });
  if (status === 429 || status === 503) return new ApiError('storage_throttled', `${message}: retry with backoff`, { url }, true);
  return new ApiError('pdf_download_error', message, { url }, retryable);
}
