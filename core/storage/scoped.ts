import type { Readable } from 'node:stream';
import type { ListOptions, ObjectInfo, Storage } from './storage.js';

/** A folder inside a bucket seen as a bucket of its own: every key is relative to `prefix`. */
export class ScopedStorage implements Storage {
  readonly rootUri: string;

  constructor(
    private readonly inner: Storage,
    private readonly prefix: string,
  ) {
    this.rootUri = inner.rootUri + prefix;
  }

  async *list(opts: ListOptions): AsyncIterable<ObjectInfo> {
    for await (const o of this.inner.list({ ...opts, prefix: this.prefix + opts.prefix })) yield { ...o, key: o.key.slice(this.prefix.length) };
  }
  async head(key: string) {
    const o = await this.inner.head(this.prefix + key);
    return o && { ...o, key };
  }
  exists(key: string) {
    return this.inner.exists(this.prefix + key);
  }
  read(key: string): Promise<Readable> {
    return this.inner.read(this.prefix + key);
  }
  readBuffer(key: string) {
    return this.inner.readBuffer(this.prefix + key);
  }
  write(key: string, body: Buffer | string | Readable, contentType?: string) {
    return this.inner.write(this.prefix + key, body, contentType);
  }
  delete(key: string) {
    return this.inner.delete(this.prefix + key);
  }
  /** The bucket answering is not enough for a folder store: its folder must be reachable too. */
  async ping() {
    await this.inner.ping();
    for await (const _ of this.inner.list({ prefix: this.prefix, recursive: false, pageSize: 1 })) break;
  }
}
