import type { Readable } from 'node:stream';
import { ApiError } from '../../../core/errors.js';
import { type ListOptions, type ObjectInfo, type Storage, StorageError } from '../../../core/storage/index.js';

/**
 * A customer bucket reached through a data source. A refusal by the provider (revoked grant,
 * wrong key, expired token) surfaces as ApiError data_source_access_denied and throttling as
 * storage_throttled, so the documents pipeline records the spec's ids; a missing object or an
 * unreachable service stays a StorageError for the caller to judge.
 */
export class GrantedStorage implements Storage {
  readonly rootUri: string;

  constructor(
    private readonly inner: Storage,
    private readonly dataSourceId: string,
  ) {
    this.rootUri = inner.rootUri;
  }

  private mapped(err: unknown): unknown {
    if (!(err instanceof StorageError)) return err;
    const extras = { data_source_id: this.dataSourceId };
    if (err.kind === 'access_denied') return new ApiError('data_source_access_denied', err.message, extras);
    if (err.kind === 'throttled') return new ApiError('storage_throttled', err.message, extras, true);
    return err;
  }

  private async call<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      throw this.mapped(err);
    }
  }

  async *list(opts: ListOptions): AsyncIterable<ObjectInfo> {
    try {
      yield* this.inner.list(opts);
    } catch (err) {
      throw this.mapped(err);
    }
  }

  head(key: string) {
    return this.call(() => this.inner.head(key));
  }

  exists(key: string) {
    return this.call(() => this.inner.exists(key));
  }

  read(key: string): Promise<Readable> {
    return this.call(() => this.inner.read(key));
  }

  readBuffer(key: string) {
    return this.call(() => this.inner.readBuffer(key));
  }

  write(key: string, body: Buffer | string | Readable, contentType?: string) {
    return this.call(() => this.inner.write(key, body, contentType));
  }

  delete(key: string) {
    return this.call(() => this.inner.delete(key));
  }

  ping() {
    return this.call(() => this.inner.ping());
  }
}
