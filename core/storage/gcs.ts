import { type Bucket, Storage as GcsClient, type StorageOptions } from '@google-cloud/storage';
import type { AuthClient } from 'google-auth-library';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type ListOptions, type ObjectInfo, type Storage, StorageError } from './storage.js';

export interface GcsStorageOptions {
  bucket: string;
  /** JSON API endpoint of an emulator (no auth is sent to it); unset: Google. */
  endpoint?: string;
  /** Tries per request including the first (library default: 4). */
  maxAttempts?: number;
  /**
   * Signs every request (e.g. google-auth-library's Impersonated); unset: the library's own
   * Application Default Credentials. Not used with an emulator `endpoint`.
   */
  authClient?: AuthClient;
  /** Project of the bucket; given, the library never has to look one up (which may probe the metadata server). */
  projectId?: string;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/** Translates a @google-cloud/storage failure into a StorageError; anything unrecognised is returned unchanged. */
export function gcsError(err: unknown, what: string): unknown {
  if (err instanceof StorageError) return err;
  const e = err as { code?: unknown; message?: string; type?: string } | undefined;
  const status = typeof e?.code === 'number' ? e.code : Number.NaN;
  const msg = `${what}: ${e?.message ?? String(err)}`;
  if (status === 404) return new StorageError('not_found', msg);
  if (status === 429 || status === 503) return new StorageError('throttled', msg);
  if (status === 401 || status === 403) return new StorageError('access_denied', msg);
  // google-auth-library's Impersonated could not get a token for the customer's service account.
  if (/unable to impersonate/i.test(e?.message ?? '')) return new StorageError('access_denied', msg);
  if (networkCode(err) || e?.type === 'request-timeout' || /socket connection timeout|network timeout/i.test(e?.message ?? '')) {
    return new StorageError('unreachable', msg);
  }
  return err;
}

function networkCode(err: unknown, depth = 0): string | undefined {
  if (!err || typeof err !== 'object' || depth > 4) return undefined;
  const e = err as { code?: unknown; errno?: unknown; cause?: unknown; errors?: unknown[] };
  for (const c of [e.code, e.errno]) if (typeof c === 'string' && NETWORK_CODES.has(c)) return c;
  for (const inner of [e.cause, ...(Array.isArray(e.errors) ? e.errors : [])]) {
    const c = networkCode(inner, depth + 1);
    if (c) return c;
  }
  return undefined;
}

/** A Google Cloud Storage bucket, addressed as gs://<bucket>/. */
export class GcsStorage implements Storage {
  readonly rootUri: string;
  private readonly bucket: Bucket;

  constructor(opts: GcsStorageOptions) {
    this.rootUri = `gs://${opts.bucket}/`;
    const config: StorageOptions = {};
    if (opts.endpoint) {
      config.apiEndpoint = opts.endpoint.replace(/\/+$/, '');
      config.projectId = 'folio';
      config.useAuthWithCustomEndpoint = false;
    } else {
      if (opts.authClient) config.authClient = opts.authClient;
      if (opts.projectId) config.projectId = opts.projectId;
    }
    if (opts.maxAttempts !== undefined) {
      // The library treats maxRetries 0 as "use the default", so one try means autoRetry off.
      config.retryOptions = opts.maxAttempts <= 1 ? { autoRetry: false } : { maxRetries: opts.maxAttempts - 1 };
    }
    this.bucket = new GcsClient(config).bucket(opts.bucket);
  }

  async *list({ prefix, recursive = true, pageSize = 1000 }: ListOptions): AsyncIterable<ObjectInfo> {
    let pageToken: string | undefined;
    do {
      let files, next;
      try {
        [files, next] = await this.bucket.getFiles({
          prefix: prefix || undefined,
          autoPaginate: false,
          maxResults: pageSize,
          pageToken,
          delimiter: recursive ? undefined : '/',
        });
      } catch (err) {
        throw gcsError(err, `list ${this.rootUri}${prefix}`);
      }
      for (const f of files) {
        if (f.name.endsWith('/')) continue;
        yield info(f.name, f.metadata);
      }
      pageToken = (next as { pageToken?: string } | null)?.pageToken;
    } while (pageToken);
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const [meta] = await this.bucket.file(key).getMetadata();
      return info(key, meta);
    } catch (err) {
      const mapped = gcsError(err, `head ${this.rootUri}${key}`);
      if (mapped instanceof StorageError && mapped.kind === 'not_found') return null;
      throw mapped;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== null;
  }

  async read(key: string): Promise<Readable> {
    const src = this.bucket.file(key).createReadStream();
    const out = new PassThrough();
    // The library reports a missing object only as a stream error once reading starts:
    // start it, and resolve only when the response is a success. Later errors end `out`.
    let opened = false;
    await new Promise<void>((resolve, reject) => {
      src.once('response', (res: { statusCode?: number }) => {
        if ((res.statusCode ?? 200) >= 400) return;
        opened = true;
        resolve();
      });
      src.on('error', (err) => {
        const mapped = gcsError(err, `read ${this.rootUri}${key}`);
        if (opened) out.destroy(mapped instanceof Error ? mapped : new Error(String(mapped)));
        else reject(mapped);
      });
      src.pipe(out);
    });
    return out;
  }

  async readBuffer(key: string): Promise<Buffer> {
    try {
      const [buf] = await this.bucket.file(key).download();
      return buf;
    } catch (err) {
      throw gcsError(err, `read ${this.rootUri}${key}`);
    }
  }

  async write(key: string, body: Buffer | string | Readable, contentType?: string): Promise<void> {
    const file = this.bucket.file(key);
    try {
      if (typeof body === 'string' || Buffer.isBuffer(body)) {
        await file.save(body, { resumable: false, contentType });
      } else {
        await pipeline(body, file.createWriteStream({ resumable: false, contentType }));
      }
    } catch (err) {
      throw gcsError(err, `write ${this.rootUri}${key}`);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.bucket.file(key).delete({ ignoreNotFound: true });
    } catch (err) {
      throw gcsError(err, `delete ${this.rootUri}${key}`);
    }
  }

  async ping(): Promise<void> {
    let found: boolean;
    try {
      [found] = await this.bucket.exists();
    } catch (err) {
      const mapped = gcsError(err, `ping ${this.rootUri}`);
      throw mapped instanceof StorageError ? mapped : new StorageError('unreachable', `ping ${this.rootUri}: ${String(err)}`);
    }
    if (!found) throw new StorageError('not_found', `ping ${this.rootUri}: no such bucket`);
  }
}

function info(key: string, meta: { size?: string | number; updated?: string; etag?: string }): ObjectInfo {
  return { key, size: Number(meta.size ?? 0), lastModified: meta.updated ? new Date(meta.updated) : undefined, etag: meta.etag };
}
