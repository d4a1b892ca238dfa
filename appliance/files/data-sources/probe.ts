import { randomBytes } from 'node:crypto';
import { ApiError } from '../../../core/errors.js';
import { type Storage, StorageError } from '../../../core/storage/index.js';
import { dataSourceError } from './connect.js';
import type { DataSource } from './store.js';

/** The object a GCP customer writes at the bucket root, holding the group's external id (spec 4.11). */
export const GCP_VERIFY_KEY = '.service-verify';

/**
 * The answer of POST /files/v1/data-sources/{id}/test: always 200, the outcome in the body, as the
 * hosted service's clients read it. result is ok when every check passed.
 */
export interface ProbeResult {
  data_source_id: string;
  result: 'ok' | 'failed';
  /** read: listing and reading work; write: a probe object could be written, read back identical and deleted. */
  checks: { read: boolean; write: boolean };
  /** What failed, or a leftover the grant could not delete; null when all went well. */
  message: string | null;
  /** The spec 7.2 id of the failure (storage_throttled says a retry may pass); null when none. */
  error_id: string | null;
}

const denied = (err: unknown) => err instanceof StorageError && err.kind === 'access_denied';

/** A probe that could not go on: the checks passed so far, and why. */
export function failedProbe(source: DataSource, err: unknown, checks: ProbeResult['checks'] = { read: false, write: false }): ProbeResult {
  const apiErr = dataSourceError(err, source);
  const id = apiErr instanceof ApiError ? apiErr.id : 'data_source_access_denied';
  return { data_source_id: source.data_source_id, result: 'failed', checks, message: (apiErr as Error).message || String(apiErr), error_id: id };
}

/**
 * Verifies a source against the real bucket: lists it (read), writes a small probe object, reads it
 * back and deletes it (write). A read-only grant (azure reader role, a bucket policy without
 * PutObject) answers write false; a source that cannot be read answers read false. Never throws.
 */
export async function probeDataSource(source: DataSource, storage: Storage): Promise<ProbeResult> {
  const done = (write: boolean, message: string | null): ProbeResult => ({
    data_source_id: source.data_source_id,
    result: write ? 'ok' : 'failed',
    checks: { read: true, write },
    message,
    error_id: write ? null : 'data_source_access_denied',
  });
  try {
    for await (const _ of storage.list({ prefix: '', pageSize: 1 })) break;
  } catch (err) {
    return failedProbe(source, err);
  }
  const token = randomBytes(8).toString('hex');
  const key = `.folio-probe-${token}`;
  const content = `folio data source probe ${token}\n`;
  try {
    await storage.write(key, content, 'text/plain');
  } catch (err) {
    if (denied(err)) return done(false, `write refused (a read-only grant serves source_uri, not destination_uri): ${(err as Error).message}`);
    return failedProbe(source, err, { read: true, write: false });
  }
  let back: string;
  try {
    back = (await storage.readBuffer(key)).toString('utf8');
  } catch (err) {
    return failedProbe(source, err, { read: true, write: false });
  }
  if (back !== content) return done(false, `probe object ${key} read back different content`);
  try {
    await storage.delete(key);
  } catch (err) {
    if (denied(err)) return done(true, `probe object ${key} left in place: delete refused`);
    return failedProbe(source, err, { read: true, write: true });
  }
  return done(true, null);
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
      throw new ApiError('data_source_access_denied', `${GCP_VERIFY_KEY} not found at the root of gs://${source.bucket}`, {
        data_source_id: source.data_source_id,
      });
    }
    throw dataSourceError(err, source);
  }
  if (content.trim() !== externalId) {
    throw new ApiError('data_source_access_denied', `${GCP_VERIFY_KEY} in gs://${source.bucket} does not hold this group's external_id`, {
      data_source_id: source.data_source_id,
    });
  }
}
