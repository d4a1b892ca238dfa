import type { TokenCredential } from '@azure/core-auth';
import {
  AnonymousCredential,
  BlobServiceClient,
  type BlobItem,
  type ContainerClient,
  newPipeline,
  type RequestPolicyFactory,
  type StoragePipelineOptions,
  StorageSharedKeyCredential,
} from '@azure/storage-blob';
import type { Agent as HttpAgent } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import type { Readable } from 'node:stream';
import { type ListOptions, type ObjectInfo, type Storage, StorageError, streamToBuffer } from './storage.js';

export interface AzureStorageOptions {
  /** https://<account>.blob.core.windows.net, or an emulator's http://host:port/<account>. */
  accountUrl: string;
  container: string;
  /** Shared key of the account; unset: `credential`, else anonymous (public containers or SAS in the URL). */
  accountKey?: string;
  /** A Microsoft Entra token credential (e.g. @azure/identity's), used when no accountKey is given. */
  credential?: TokenCredential;
  /** Agents every blob request goes out through (e.g. with an SSRF-guarded lookup); unset: the SDK's own. */
  agents?: { httpAgent: HttpAgent; httpsAgent: HttpsAgent };
  /** Tries per request including the first (SDK default: 4, with seconds of back-off). */
  maxAttempts?: number;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'REQUEST_SEND_ERROR',
]);
const THROTTLE_CODES = new Set(['ServerBusy', 'OperationTimedOut', 'TooManyRequests']);
const TOKEN_ERRORS = new Set(['CredentialUnavailableError', 'AuthenticationError', 'AggregateAuthenticationError', 'AuthenticationRequiredError']);

/** Translates an @azure/storage-blob failure into a StorageError; anything unrecognised is returned unchanged. */
export function azureError(err: unknown, what: string): unknown {
  if (err instanceof StorageError) return err;
  const e = err as { statusCode?: number; code?: unknown; message?: string; name?: string } | undefined;
  const status = e?.statusCode;
  const code = typeof e?.code === 'string' ? e.code : '';
  const msg = `${what}: ${code || e?.name || 'error'} ${e?.message ?? ''}`.trim();
  if (status === 404) return new StorageError('not_found', msg);
  if (status === 429 || status === 503 || THROTTLE_CODES.has(code)) return new StorageError('throttled', msg);
  if (status === 401 || status === 403) return new StorageError('access_denied', msg);
  // @azure/identity's failures to get a token: the grant cannot be used (no assignment, wrong tenant, no identity).
  if (e?.name && TOKEN_ERRORS.has(e.name)) return new StorageError('access_denied', msg);
  if (NETWORK_CODES.has(code) || /ECONNREFUSED|ENOTFOUND|ETIMEDOUT|ECONNRESET|EAI_AGAIN/.test(e?.message ?? '') || e?.name === 'TimeoutError') {
    return new StorageError('unreachable', msg);
  }
  return err;
}

/** The account name: the subdomain of <account>.blob.core.windows.net, else the emulator's last path segment. */
function accountNameOf(accountUrl: string): string {
  const url = new URL(accountUrl);
  if (url.hostname.endsWith('.blob.core.windows.net')) return url.hostname.split('.')[0];
  const segments = url.pathname.split('/').filter(Boolean);
  return segments.at(-1) ?? url.hostname.split('.')[0];
}

/**
 * A request policy that sends each blob request through the given agents. The SDK honours a
 * request's own agent before its defaults; token requests of `credential` are not blob requests
 * and keep the identity library's own transport.
 */
function agentPolicy(agents: { httpAgent: HttpAgent; httpsAgent: HttpsAgent }): RequestPolicyFactory {
  return {
    create: (next) => ({
      sendRequest(request) {
        request.agent = request.url.startsWith('https:') ? agents.httpsAgent : agents.httpAgent;
        return next.sendRequest(request);
      },
    }),
  };
}

/** An Azure blob container, addressed as <accountUrl>/<container>/. */
export class AzureStorage implements Storage {
  readonly rootUri: string;
  private readonly container: ContainerClient;

  constructor(opts: AzureStorageOptions) {
    const accountUrl = opts.accountUrl.replace(/\/+$/, '');
    this.rootUri = `${accountUrl}/${opts.container}/`;
    const credential = opts.accountKey
      ? new StorageSharedKeyCredential(accountNameOf(accountUrl), opts.accountKey)
      : (opts.credential ?? new AnonymousCredential());
    const pipelineOpts: StoragePipelineOptions = opts.maxAttempts ? { retryOptions: { maxTries: opts.maxAttempts } } : {};
    const pipeline = newPipeline(credential, pipelineOpts);
    if (opts.agents) pipeline.factories.push(agentPolicy(opts.agents));
    this.container = new BlobServiceClient(accountUrl, pipeline).getContainerClient(opts.container);
  }

  async *list({ prefix, recursive = true, pageSize = 1000 }: ListOptions): AsyncIterable<ObjectInfo> {
    const pages = recursive
      ? this.container.listBlobsFlat({ prefix: prefix || undefined }).byPage({ maxPageSize: pageSize })
      : this.container.listBlobsByHierarchy('/', { prefix: prefix || undefined }).byPage({ maxPageSize: pageSize });
    const it = pages[Symbol.asyncIterator]();
    for (;;) {
      let page;
      try {
        page = await it.next();
      } catch (err) {
        throw azureError(err, `list ${this.rootUri}${prefix}`);
      }
      if (page.done) return;
      for (const b of page.value.segment.blobItems as BlobItem[]) {
        if (b.name.endsWith('/')) continue;
        yield { key: b.name, size: b.properties.contentLength ?? 0, lastModified: b.properties.lastModified, etag: b.properties.etag };
      }
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const p = await this.container.getBlobClient(key).getProperties();
      return { key, size: p.contentLength ?? 0, lastModified: p.lastModified, etag: p.etag };
    } catch (err) {
      const mapped = azureError(err, `head ${this.rootUri}${key}`);
      if (mapped instanceof StorageError && mapped.kind === 'not_found') return null;
      throw mapped;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== null;
  }

  async read(key: string): Promise<Readable> {
    try {
      const r = await this.container.getBlobClient(key).download();
      if (!r.readableStreamBody) throw new Error('download returned no body');
      return r.readableStreamBody as Readable;
    } catch (err) {
      throw azureError(err, `read ${this.rootUri}${key}`);
    }
  }

  async readBuffer(key: string): Promise<Buffer> {
    return streamToBuffer(await this.read(key));
  }

  async write(key: string, body: Buffer | string | Readable, contentType?: string): Promise<void> {
    const blob = this.container.getBlockBlobClient(key);
    const blobHTTPHeaders = contentType ? { blobContentType: contentType } : undefined;
    try {
      if (typeof body === 'string' || Buffer.isBuffer(body)) {
        const buf = typeof body === 'string' ? Buffer.from(body) : body;
        await blob.upload(buf, buf.length, { blobHTTPHeaders });
      } else {
        await blob.uploadStream(body, 4 * 1024 * 1024, 4, { blobHTTPHeaders });
      }
    } catch (err) {
      throw azureError(err, `write ${this.rootUri}${key}`);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.container.getBlobClient(key).deleteIfExists();
    } catch (err) {
      throw azureError(err, `delete ${this.rootUri}${key}`);
    }
  }

  async ping(): Promise<void> {
    try {
      await this.container.getProperties();
    } catch (err) {
      const mapped = azureError(err, `ping ${this.rootUri}`);
      throw mapped instanceof StorageError ? mapped : new StorageError('unreachable', `ping ${this.rootUri}: ${String(err)}`);
    }
  }
}
