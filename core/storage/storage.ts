import type { Readable } from 'node:stream';

/** One object found by a listing. `key` is relative to the bucket/container root. */
export interface ObjectInfo {
  key: string;
  size: number;
  lastModified?: Date;
  etag?: string;
}

export interface ListOptions {
  /** Key prefix to list under ('' for the whole bucket). */
  prefix: string;
  /** Descend into sub-folders (default true). */
  recursive?: boolean;
  /** Objects requested per listing page; adapters page lazily. */
  pageSize?: number;
}

/**
 * One bucket (or container, or folder) of object storage. Keys use '/' separators.
 * Adapters: file.ts (file://), s3.ts (s3://), gcs.ts (gs://), azure.ts (Azure blob https).
 */
export interface Storage {
  /** URI of the bucket root, ending in '/'. */
  readonly rootUri: string;
  /** Lists objects in pages as they arrive; memory stays bounded by one page. */
  list(opts: ListOptions): AsyncIterable<ObjectInfo>;
  /** Metadata of one object, or null when absent. */
  head(key: string): Promise<ObjectInfo | null>;
  exists(key: string): Promise<boolean>;
  read(key: string): Promise<Readable>;
  readBuffer(key: string): Promise<Buffer>;
  write(key: string, body: Buffer | string | Readable, contentType?: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Cheap reachability check of the bucket itself (for /health). */
  ping(): Promise<void>;
}

/** Raised by adapters; maps onto the spec ids not_found, storage_throttled, data_source_access_denied. */
export class StorageError extends Error {
  constructor(
    readonly kind: 'not_found' | 'throttled' | 'access_denied' | 'unreachable',
    message: string,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

export async function streamToBuffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
  return Buffer.concat(chunks);
}
