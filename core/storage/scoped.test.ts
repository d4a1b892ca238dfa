import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openOwnStore } from './index.js';
import { FileStorage } from './file.js';
import { ScopedStorage } from './scoped.js';

describe('own store and scoped storage', () => {
  let dir: string;
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('keeps Folio keys inside its folder, never at the filesystem root', async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-own-'));
    const own = await openOwnStore(`file://${dir}/store`, {});
    await own.write('scratch/pages/x/1.png', 'png');
    expect(await readFile(join(dir, 'store', 'scratch/pages/x/1.png'), 'utf8')).toBe('png');
    expect(own.rootUri).toBe(`file://${dir}/store/`);
  });

  it('lists, reads and deletes relative to the prefix', async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-scoped-'));
    const bucket = new FileStorage(`file://${dir}/`);
    await bucket.write('outside.txt', 'no');
    const scoped = new ScopedStorage(bucket, 'folio/');
    await scoped.write('a/b.txt', 'yes');
    const keys: string[] = [];
    for await (const o of scoped.list({ prefix: '' })) keys.push(o.key);
    expect(keys).toEqual(['a/b.txt']);
    expect((await scoped.head('a/b.txt'))?.key).toBe('a/b.txt');
    expect((await scoped.readBuffer('a/b.txt')).toString()).toBe('yes');
    await scoped.delete('a/b.txt');
    expect(await bucket.exists('folio/a/b.txt')).toBe(false);
    expect(await bucket.exists('outside.txt')).toBe(true);
  });
});
