import { FileStorage } from './file.js';
import type { Storage } from './storage.js';
import { type Location, parseLocation, rootUriOf } from './uri.js';
import { S3Storage } from './s3.js';
import { GcsStorage } from './gcs.js';
import { AzureStorage } from './azure.js';

export * from './storage.js';
export * from './uri.js';
export { FileStorage } from './file.js';
export { ScopedStorage } from './scoped.js';
import { ScopedStorage } from './scoped.js';

/**
 * Endpoints and credentials of the storage services Folio talks to. Credentials come from the
 * providers' usual environment (AWS_ACCESS_KEY_ID…, GOOGLE_APPLICATION_CREDENTIALS…) unless given here.
 */
export interface StorageSettings {
  /** S3-compatible endpoint (MinIO, Ceph, s3rver); unset: AWS. */
  s3Endpoint?: string;
  s3Region?: string;
  s3AccessKeyId?: string;
  s3SecretAccessKey?: string;
  /** GCS JSON API endpoint (emulator); unset: Google. */
  gcsEndpoint?: string;
  /** Azure shared key for the account named in the URL (Azurite: the well-known dev key). */
  azureAccountKey?: string;
  /** Accept http://host:port/<account>/<container>/ URLs (Azurite). */
  azureEmulator?: boolean;
}

export function storageSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): StorageSettings {
  return {
    s3Endpoint: env.FOLIO_S3_ENDPOINT || undefined,
    s3Region: env.FOLIO_S3_REGION || env.AWS_REGION || undefined,
    s3AccessKeyId: env.AWS_ACCESS_KEY_ID || undefined,
    s3SecretAccessKey: env.AWS_SECRET_ACCESS_KEY || undefined,
    gcsEndpoint: env.FOLIO_GCS_ENDPOINT || undefined,
    azureAccountKey: env.FOLIO_AZURE_ACCOUNT_KEY || undefined,
    azureEmulator: env.FOLIO_AZURE_EMULATOR === 'true',
  };
}

/** Opens the bucket a URI points into; returns it with the key (or folder prefix) inside it. */
export function openLocation(uri: string, settings: StorageSettings): { storage: Storage; location: Location } {
  const location = parseLocation(uri, { azureEmulator: settings.azureEmulator });
  return { storage: storageFor(location, settings), location };
}

const cache = new Map<string, Storage>();
/** Bucket roots kept open; past this the least recently used is dropped (jobs name buckets without limit). */
export const STORAGE_CLIENTS_CACHED = 256;

/** One Storage per bucket root and settings, reused: SDK clients keep their connection pools. */
export function storageFor(loc: Location, settings: StorageSettings): Storage {
  const root = rootUriOf(loc);
  const cacheKey = `${root}\n${JSON.stringify(settings)}`;
  let s = cache.get(cacheKey);
  if (s)
    cache.delete(cacheKey); // re-inserted below: Map order is recency
  else s = create(loc, root, settings);
  cache.set(cacheKey, s);
  if (cache.size > STORAGE_CLIENTS_CACHED) cache.delete(cache.keys().next().value!);
  return s;
}

/** For tests: how many bucket roots are open. */
export const storageClientsCached = () => cache.size;

function create(loc: Location, root: string, settings: StorageSettings): Storage {
  switch (loc.scheme) {
    case 'file':
      return new FileStorage(root);
    case 's3':
      return new S3Storage({
        bucket: loc.bucket,
        endpoint: settings.s3Endpoint,
        region: settings.s3Region,
        accessKeyId: settings.s3AccessKeyId,
        secretAccessKey: settings.s3SecretAccessKey,
      });
    case 'gs':
      return new GcsStorage({ bucket: loc.bucket, endpoint: settings.gcsEndpoint });
    case 'azure':
      return new AzureStorage({ accountUrl: loc.endpoint!, container: loc.bucket, accountKey: settings.azureAccountKey });
  }
}

/**
 * Folio's own result store: the folder FOLIO_STORAGE_URI names, as a bucket of its own (keys
 * relative to it). A local folder is created when missing.
 */
export async function openOwnStore(uri: string, settings: StorageSettings): Promise<Storage> {
  const folder = uri.endsWith('/') ? uri : `${uri}/`;
  const { storage, location } = openLocation(folder, settings);
  if (location.scheme === 'file') {
    const own = new FileStorage(folder);
    await own.ensureRoot();
    return own;
  }
  return location.key ? new ScopedStorage(storage, location.key) : storage;
}
