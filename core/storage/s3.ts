import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
import { type ListOptions, type ObjectInfo, type Storage, StorageError, streamToBuffer } from './storage.js';

export interface S3StorageOptions {
  bucket: string;
  /** S3-compatible endpoint (MinIO, Ceph, s3rver); unset: AWS. */
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Tries per request including the first (SDK default: 3). */
  maxAttempts?: number;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
const THROTTLE_NAMES = new Set(['SlowDown', 'Throttling', 'ThrottlingException', 'TooManyRequestsException', 'RequestLimitExceeded', 'ServiceUnavailable']);
const DENIED_NAMES = new Set(['AccessDenied', 'Forbidden', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'ExpiredToken', 'AllAccessDisabled']);
const MISSING_NAMES = new Set(['NoSuchKey', 'NotFound', 'NoSuchBucket']);

/** Translates an AWS SDK failure into a StorageError; anything unrecognised is returned unchanged. */
export function s3Error(err: unknown, what: string): unknown {
  if (err instanceof StorageError) return err;
  const e = err as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  const status = e?.$metadata?.httpStatusCode;
  const name = e?.name ?? '';
  const msg = `${what}: ${name || 'error'} ${e?.message ?? ''}`.trim();
  if (MISSING_NAMES.has(name) || status === 404) return new StorageError('not_found', msg);
  if (THROTTLE_NAMES.has(name) || status === 429 || status === 503) return new StorageError('throttled', msg);
  if (DENIED_NAMES.has(name) || status === 401 || status === 403) return new StorageError('access_denied', msg);
  if (name === 'TimeoutError' || networkCode(err)) return new StorageError('unreachable', msg);
  return err;
}

/** Finds a socket-level error code, looking through `cause` and AggregateError members. */
function networkCode(err: unknown, depth = 0): string | undefined {
  if (!err || typeof err !== 'object' || depth > 4) return undefined;
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown[] };
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return e.code;
  for (const inner of [e.cause, ...(Array.isArray(e.errors) ? e.errors : [])]) {
    const c = networkCode(inner, depth + 1);
    if (c) return c;
  }
  return undefined;
}

/** An S3 (or S3-compatible) bucket, addressed as s3://<bucket>/. */
export class S3Storage implements Storage {
  readonly rootUri: string;
  readonly client: S3Client;
  private readonly bucket: string;

  constructor(opts: S3StorageOptions) {
    this.bucket = opts.bucket;
    this.rootUri = `s3://${opts.bucket}/`;
    const config: S3ClientConfig = {
      region: opts.region ?? 'us-east-1',
      maxAttempts: opts.maxAttempts,
      // Bounded waits: a dead or hung endpoint surfaces as 'unreachable' instead of stalling a job.
      requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
    };
    if (opts.endpoint) {
      config.endpoint = opts.endpoint;
      config.forcePathStyle = true;
      // S3-compatible servers often lack the SDK's newer default integrity checksums (aws-chunked trailers).
      config.requestChecksumCalculation = 'WHEN_REQUIRED';
      config.responseChecksumValidation = 'WHEN_REQUIRED';
    }
    if (opts.accessKeyId && opts.secretAccessKey) {
      config.credentials = { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey };
    }
    this.client = new S3Client(config);
  }

  async *list({ prefix, recursive = true, pageSize = 1000 }: ListOptions): AsyncIterable<ObjectInfo> {
    let token: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: prefix || undefined,
            MaxKeys: pageSize,
            ContinuationToken: token,
            Delimiter: recursive ? undefined : '/',
          }),
        );
      } catch (err) {
        throw s3Error(err, `list ${this.rootUri}${prefix}`);
      }
      for (const o of page.Contents ?? []) {
        if (!o.Key || o.Key.endsWith('/')) continue;
        yield { key: o.Key, size: o.Size ?? 0, lastModified: o.LastModified, etag: o.ETag };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const r = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { key, size: r.ContentLength ?? 0, lastModified: r.LastModified, etag: r.ETag };
    } catch (err) {
      const mapped = s3Error(err, `head ${this.rootUri}${key}`);
      if (mapped instanceof StorageError && mapped.kind === 'not_found') return null;
      throw mapped;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== null;
  }

  async read(key: string): Promise<Readable> {
    try {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return r.Body as Readable;
    } catch (err) {
      throw s3Error(err, `read ${this.rootUri}${key}`);
    }
  }

  async readBuffer(key: string): Promise<Buffer> {
    return streamToBuffer(await this.read(key));
  }

  async write(key: string, body: Buffer | string | Readable, contentType?: string): Promise<void> {
    try {
      if (typeof body === 'string' || Buffer.isBuffer(body)) {
        await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
      } else {
        // Length unknown: Upload buffers parts and switches to multipart above 5 MB.
        await new Upload({ client: this.client, params: { Bucket: this.bucket, Key: key, Body: body, ContentType: contentType } }).done();
      }
    } catch (err) {
      throw s3Error(err, `write ${this.rootUri}${key}`);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (err) {
      throw s3Error(err, `delete ${this.rootUri}${key}`);
    }
  }

  async ping(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      const mapped = s3Error(err, `ping ${this.rootUri}`);
      throw mapped instanceof StorageError ? mapped : new StorageError('unreachable', `ping ${this.rootUri}: ${String(err)}`);
    }
  }
}
