import { randomBytes } from 'node:crypto';
import { ApiError } from '../../../core/errors.js';
import { type Storage, StorageError } from '../../../core/storage/index.js';
import { dataSourceError } from './connect.js';
import type { DataSource } from './store.js';

/** The object a GCP customer writes at the bucket root, holding the group's external id (spec 4.11). */
export const GCP_VERIFY_KEY = '.service-verify';

/** The answer of POST /files/v1/data-sources/{id}/test. */
export interface ProbeResult {
  data_source_id: string;
  /** Listing and reading objects work. Always true in a result: a failed read is an error. */
  read: true;
  /** A probe object could be written, read back identical and deleted. */
  write: boolean;
  /** Why write is false, or a leftover the grant could not delete; null when all went well. */
  detail: string | null;
}

const denied = (err: unknown) => err instanceof StorageError && err.kind === 'access_denied';

/**
 * Verifies a source against the real bucket: lists it (read), writes a small probe object, reads it
 * back and deletes it (write). A read-only grant (azure reader role, a bucket policy without
 * PutObject) answers write false; a source that cannot be read throws data_source_access_denied.
 */
export async function probeDataSource(source: DataSource, storage: Storage): Promise<ProbeResult> {
  const result = (write: boolean, detail: string | null): ProbeResult => ({ data_source_id: source.data_source_id, read: true, write, detail });
  try {
    for await (const _ of storage.list({ prefix: '', pageSize: 1 })) break;
  } catch (err) {
    throw dataSourceError(err, source);
  }
  const token = randomBytes(8).toString('hex');
  const key = `.folio-probe-${token}`;
  const content = `folio data source probe ${token}\n`;
  try {
    await storage.write(key, content, 'text/plain');
  } catch (err) {
    if (denied(err)) return result(false, `write refused: ${(err as Error).message}`);
    throw dataSourceError(err, source);
  }
  let back: string;
  try {
    back = (await storage.readBuffer(key)).toString('utf8');
  } catch (err) {
    throw dataSourceError(err, source);
  }
  if (back !== content) throw new ApiError('data_source_access_denied', `probe object ${key} read back different content`, { data_source_id: source.data_source_id });
  try {
    await storage.delete(key);
  } catch (err) {
    if (denied(err)) return result(true, `probe object ${key} left in place: delete refused`);
    throw dataSourceError(err, source);
  }
  return result(true, null);
}

/**
 * The GCP ownership check of registration: `.service-verify` at the bucket root must hold exactly
 * the group's external id (surrounding whitespace aside). Read once; throws data_source_access_denied.
 */
export async function verifyGcpOwnership(source: DataSource, storage: Storage, externalId: string): Promise<void> {
  let content: string;
  try {
    content = (await storage.readBuffer(GCP_VERIFY_KEY)).toString('utf8');
  } catch (err) {
    if (err instanceof StorageError && err.kind === 'not_found') {
      throw new ApiError('data_source_access_denied', `${GCP_VERIFY_KEY} not found at the root of gs://${source.bucket}`, { data_source_id: source.data_source_id });
    }
    throw dataSourceError(err, source);
  }
  if (content.trim() !== externalId) {
    throw new ApiError('data_source_access_denied', `${GCP_VERIFY_KEY} in gs://${source.bucket} does not hold this group's external_id`, { data_source_id: source.data_source_id });
  }
}
