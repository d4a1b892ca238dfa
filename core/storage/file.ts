import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, opendir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { type ListOptions, type ObjectInfo, type Storage, StorageError, streamToBuffer } from './storage.js';

/** A local or mounted folder as a bucket (file:// URIs, for on-premise shares). */
export class FileStorage implements Storage {
  readonly rootUri: string;
  private readonly root: string;

  constructor(rootUri: string) {
    this.root = fileURLToPath(rootUri.endsWith('/') ? rootUri : `${rootUri}/`);
    this.rootUri = `file://${this.root}`;
  }

  private path(key: string): string {
    const p = join(this.root, key);
    if (!p.startsWith(this.root)) throw new StorageError('access_denied', `key escapes the root: ${key}`);
    return p;
  }

  async *list({ prefix, recursive = true }: ListOptions): AsyncIterable<ObjectInfo> {
    // Walk the deepest existing folder of the prefix, then filter by the full prefix.
    const slash = prefix.lastIndexOf('/');
    const base = this.path(slash >= 0 ? prefix.slice(0, slash + 1) : '');
    yield* this.walk(base, prefix, recursive);
  }

  private async *walk(dir: string, prefix: string, recursive: boolean): AsyncIterable<ObjectInfo> {
    let handle;
    try {
      handle = await opendir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    const entries: { name: string; dir: boolean }[] = [];
    for await (const e of handle) entries.push({ name: e.name, dir: e.isDirectory() });
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const full = join(dir, e.name);
      const key = relative(this.root, full).split(sep).join('/');
      if (e.dir) {
        if (!recursive && !`${key}/`.startsWith(prefix)) continue;
        if (recursive || prefix.startsWith(`${key}/`)) yield* this.walk(full, prefix, recursive);
        continue;
      }
      if (e.name.startsWith('.folio-tmp-') || !key.startsWith(prefix)) continue;
      if (!recursive && key.slice(prefix.length).includes('/')) continue;
      const s = await stat(full);
      yield { key, size: s.size, lastModified: s.mtime };
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const s = await stat(this.path(key));
      return s.isFile() ? { key, size: s.size, lastModified: s.mtime } : null;
    } catch {
      return null;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== null;
  }

  async read(key: string): Promise<Readable> {
    if (!(await this.exists(key))) throw new StorageError('not_found', `no object ${key}`);
    return createReadStream(this.path(key));
  }

  async readBuffer(key: string): Promise<Buffer> {
    return streamToBuffer(await this.read(key));
  }

  async write(key: string, body: Buffer | string | Readable): Promise<void> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    // Write beside the target, then rename: readers never see half an object.
    const tmp = join(dirname(target), `.folio-tmp-${randomUUID()}`);
    try {
      const out = createWriteStream(tmp);
      if (typeof body === 'string' || Buffer.isBuffer(body)) {
        await new Promise<void>((res, rej) => out.end(body, () => res()).on('error', rej));
      } else {
        await pipeline(body, out);
      }
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      if ((err as NodeJS.ErrnoException).code === 'EACCES') throw new StorageError('access_denied', String(err));
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async ping(): Promise<void> {
    try {
      const s = await stat(this.root);
      if (!s.isDirectory()) throw new Error('not a folder');
    } catch (err) {
      throw new StorageError('unreachable', `${this.rootUri}: ${(err as Error).message}`);
    }
  }

  /** Creates the root folder (Folio's own store only; customer folders must already exist). */
  async ensureRoot(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }
}
