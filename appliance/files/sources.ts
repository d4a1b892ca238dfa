import { ApiError } from '../../core/errors.js';
import { type Storage, StorageError } from '../../core/storage/index.js';
import { pdfFolder } from '../../core/v3/keys.js';
import type { PdfSource } from '../../core/v3/pdf-store.js';
import { sourceExtension } from '../../core/v3/source.js';
import type { AppContext } from '../context.js';
import { openDataSourceUri } from './data-sources/index.js';
import type { FileRow } from './ledger.js';
import { classifySource } from './uris.js';

/** Largest Files API source (spec 8). */
export const MAX_FILES_SOURCE_BYTES = 15 * 1024 ** 3;

/** Resolves an s3://, gs:// or blob URL through the group's data source (the data-sources component). */
export type OpenBucketUri = (ctx: AppContext, groupId: string, uri: string) => Promise<{ storage: Storage; key: string }>;

export const defaultOpenBucketUri: OpenBucketUri = openDataSourceUri;

/** A customer-bucket failure as the spec id the file records (spec 7.2). */
export function storageFailure(err: unknown, what: string): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof StorageError) {
    switch (err.kind) {
      case 'not_found':
        return new ApiError('not_found', `${what} does not exist`);
      case 'access_denied':
        return new ApiError('data_source_access_denied', `Access to ${what} was denied: ${err.message}`);
      case 'throttled':
        return new ApiError('storage_throttled', `Storage throttled while reading ${what}`, {}, true);
      default:
        return new ApiError('storage_throttled', `Storage unreachable for ${what}: ${err.message}`, {}, true);
    }
  }
  return new ApiError('sys_exception', `Could not read ${what}`);
}

/**
 * Where the document worker finds a file's bytes. A public https source is fetched by the worker
 * through the SSRF guard; an uploaded one is already in Folio's store. A bucket source is copied
 * (streamed) into the document's folder here, because only the control plane holds data-source
 * grants. Throws ApiError: data_source_not_found, data_source_access_denied, not_found,
 * content_too_large, or a retryable storage_throttled.
 */
export async function stageSource(ctx: AppContext, open: OpenBucketUri, row: FileRow): Promise<PdfSource> {
  if (row.upload_key) return { kind: 'upload', key: row.upload_key };
  const source = classifySource(row.source_uri, { azureEmulator: ctx.storageSettings.azureEmulator, allowPrivate: ctx.config.FOLIO_ALLOW_PRIVATE_URLS });
  if (source.kind === 'public') return { kind: 'url', url: source.url };
  const { storage, key } = await open(ctx, row.group_id, source.uri);
  const target = `${pdfFolder(row.file_id)}source.${sourceExtension(key)}`;
  try {
    const info = await storage.head(key);
    if (!info) throw new ApiError('not_found', `${source.uri} does not exist`);
    if (info.size > MAX_FILES_SOURCE_BYTES)
      throw new ApiError('content_too_large', `The source is larger than ${MAX_FILES_SOURCE_BYTES} bytes`, { size: info.size });
    await ctx.storage.write(target, await storage.read(key));
  } catch (err) {
    throw storageFailure(err, source.uri);
  }
  return { kind: 'upload', key: target };
}
