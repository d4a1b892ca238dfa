import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileStorage } from '../../core/storage/index.js';
import { existingKeys, groupByFolder, splitGroup } from './existing-outputs.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'folio-existing-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(keys: string[]): Promise<void> {
  for (const key of keys) {
    await mkdir(dirname(join(root, key)), { recursive: true });
    await writeFile(join(root, key), 'x');
  }
}

/** A real folder store that counts the requests made of it and the objects its listings return. */
function countedStore() {
  const storage = new FileStorage(`file://${root}/`);
  const calls = { list: 0, listed: 0, exists: 0 };
  const list = storage.list.bind(storage);
  const exists = storage.exists.bind(storage);
  storage.list = async function* (opts) {
    calls.list++;
    for await (const o of list(opts)) {
      calls.listed++;
      yield o;
    }
  };
  storage.exists = (key) => {
    calls.exists++;
    return exists(key);
  };
  return { storage, calls };
}

const names = (n: number, at: (i: number) => string) => Array.from({ length: n }, (_, i) => at(i));
const pad = (i: number) => String(i).padStart(4, '0');

describe('existingKeys', () => {
  it('answers a folder of outputs with one listing instead of a request per key', async () => {
    await put(names(600, (i) => `out/d1/f${pad(i)}.mmd`));
    const { storage, calls } = countedStore();
    const wanted = names(500, (i) => `out/d1/f${pad(i + 300)}.mmd`);
    const found = await existingKeys(storage, wanted, { byListing: true });
    expect([...found].sort()).toEqual(wanted.slice(0, 300));
    expect(calls).toMatchObject({ list: 1, exists: 0 });
  });

  it('counts only exact keys directly in the folder, not look-alikes or sub-folders', async () => {
    await put(['out/a.mmd', 'out/sub/b.mmd', 'out/c.mmd.bak', 'out/d.mmd', 'out/e.pdf']);
    const { storage } = countedStore();
    const wanted = ['out/a.mmd', 'out/b.mmd', 'out/sub/b.mmd', 'out/c.mmd', 'out/d.mmd', 'out/e.mmd'];
    expect([...(await existingKeys(storage, wanted, { byListing: true }))].sort()).toEqual(['out/a.mmd', 'out/d.mmd', 'out/sub/b.mmd']);
  });

  it('narrows a listing that reads far more than it answers, with the same answer', async () => {
    // 3,000 outputs in one folder; the batch asks for a few spread over it.
    await put(names(3000, (i) => `out/x${pad(i)}.mmd`));
    const { storage, calls } = countedStore();
    const wanted = ['out/x0007.mmd', 'out/x0008.mmd', 'out/x0009.mmd', 'out/x1500.mmd', 'out/x2999.mmd', 'out/x3001.mmd'];
    const found = await existingKeys(storage, wanted, { byListing: true });
    expect([...found].sort()).toEqual(wanted.slice(0, 5));
    // The broad listing stops at its budget; the narrower ones read ten keys ("out/x000").
    expect(calls.listed).toBeLessThanOrEqual(1001 + 10);
    expect(calls.exists).toBe(3);
  });

  it('checks key by key on a local folder unless told to list', async () => {
    await put(['out/a.mmd']);
    const { storage, calls } = countedStore();
    expect([...(await existingKeys(storage, ['out/a.mmd', 'out/b.mmd', 'out/c.mmd']))]).toEqual(['out/a.mmd']);
    expect(calls).toMatchObject({ list: 0, exists: 3 });
  });

  it('answers keys spread over folders, at the bucket root too', async () => {
    await put(['top.mmd', 'a/1.mmd', 'a/2.mmd', 'a/3.mmd', 'b/c/9.mmd']);
    const { storage } = countedStore();
    const wanted = ['top.mmd', 'top2.mmd', 'a/1.mmd', 'a/2.mmd', 'a/3.mmd', 'a/4.mmd', 'b/c/9.mmd', 'b/9.mmd'];
    expect([...(await existingKeys(storage, wanted, { byListing: true }))].sort()).toEqual(['a/1.mmd', 'a/2.mmd', 'a/3.mmd', 'b/c/9.mmd', 'top.mmd']);
  });
});

describe('key groups', () => {
  it('groups by folder with the longest shared prefix', () => {
    expect(groupByFolder(['o/b/f10.mmd', 'o/a.mmd', 'o/b/f12.mmd', 'o/a.mmd'])).toEqual([
      { prefix: 'o/b/f1', keys: ['o/b/f10.mmd', 'o/b/f12.mmd'] },
      { prefix: 'o/a.mmd', keys: ['o/a.mmd'] },
    ]);
  });

  it('splits by the next character until every part is narrower', () => {
    const [group] = groupByFolder(['o/a1.mmd', 'o/a2.mmd', 'o/b.mmd', 'o/a.mmd']);
    expect(group!.prefix).toBe('o/');
    expect(splitGroup(group!)).toEqual([
      { prefix: 'o/a', keys: ['o/a.mmd', 'o/a1.mmd', 'o/a2.mmd'] },
      { prefix: 'o/b.mmd', keys: ['o/b.mmd'] },
    ]);
  });

  it('never cuts a character outside the basic plane in half', () => {
    const [group] = groupByFolder(['o/\u{1F600}a.mmd', 'o/\u{1F601}a.mmd', 'o/\u{1F601}b.mmd']);
    expect(group!.prefix).toBe('o/');
    expect(splitGroup(group!).map((g) => g.prefix)).toEqual(['o/\u{1F600}a.mmd', 'o/\u{1F601}']);
  });
});
