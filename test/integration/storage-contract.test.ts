import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, type IncomingMessage, createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AzureStorage, azureError } from '../../core/storage/azure.js';
import { FileStorage } from '../../core/storage/file.js';
import { GcsStorage, gcsError } from '../../core/storage/gcs.js';
import { S3Storage, s3Error } from '../../core/storage/s3.js';
import { type Storage, StorageError, streamToBuffer } from '../../core/storage/storage.js';
import { startAzurite } from '../support/azurite.js';
import { startFakeGcs } from '../support/fake-gcs.js';
import { freePort } from '../support/ports.js';
import { startS3rver } from '../support/s3rver.js';

interface Harness {
  /** A bucket that exists and starts empty. */
  storage: Storage;
  /** Same service, a bucket/container that does not exist. */
  missing: Storage;
  /** The kind ping on `missing` rejects with. */
  missingKind: StorageError['kind'];
  /** Same adapter pointed at an address nothing answers on. */
  unreachable(): Promise<Storage>;
  /** Listing requests the service has answered so far (absent: the adapter has no pages). */
  listCalls?: () => number;
  /** Whether keys ending in '/' (folder markers) can be written. */
  folderMarkers: boolean;
  /** Same bucket with wrong credentials (absent: the service has no auth here). */
  denied?: Storage;
  /** Network adapters fail every call when the service is gone; a folder has only ping to fail. */
  networked: boolean;
  stop(): Promise<void>;
}

const BUCKET = 'folio-contract';

async function collect(objects: AsyncIterable<{ key: string }>): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of objects) keys.push(o.key);
  return keys;
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

async function eachLimit<T>(items: T[], limit: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

function contract(name: string, setup: () => Promise<Harness>): void {
  describe(`storage contract: ${name}`, () => {
    let h: Harness;
    let s: Storage;
    beforeAll(async () => {
      h = await setup();
      s = h.storage;
    });
    afterAll(async () => {
      await h?.stop();
    });

    it('round-trips binary data through write and readBuffer/read', async () => {
      const data = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(300_000)]);
      await s.write('bin/blob.bin', data, 'application/octet-stream');
      expect((await s.readBuffer('bin/blob.bin')).equals(data)).toBe(true);
      expect((await streamToBuffer(await s.read('bin/blob.bin'))).equals(data)).toBe(true);
      await s.write('bin/text.txt', 'héllo\n', 'text/plain');
      expect((await s.readBuffer('bin/text.txt')).toString('utf8')).toBe('héllo\n');
    });

    it('writes from a Readable of unknown length (larger than one upload part)', async () => {
      const chunks = Array.from({ length: 7 }, () => randomBytes(1024 * 1024));
      await s.write('stream/big.bin', Readable.from(chunks));
      const back = await s.readBuffer('stream/big.bin');
      expect(back.length).toBe(7 * 1024 * 1024);
      expect(back.equals(Buffer.concat(chunks))).toBe(true);
    });

    it('head gives the size, null when absent; exists agrees', async () => {
      await s.write('head/x.txt', Buffer.alloc(1234, 7));
      const info = await s.head('head/x.txt');
      expect(info).toMatchObject({ key: 'head/x.txt', size: 1234 });
      expect(await s.head('head/absent.txt')).toBeNull();
      expect(await s.exists('head/x.txt')).toBe(true);
      expect(await s.exists('head/absent.txt')).toBe(false);
    });

    it('read and readBuffer of a missing key reject with not_found', async () => {
      for (const call of [() => s.read('missing/nothing.pdf'), () => s.readBuffer('missing/nothing.pdf')]) {
        const err = await rejection(call());
        expect(err).toBeInstanceOf(StorageError);
        expect((err as StorageError).kind).toBe('not_found');
      }
    });

    it('delete removes the object, and deleting an absent key is fine', async () => {
      await s.write('del/x.txt', 'x');
      await s.delete('del/x.txt');
      expect(await s.exists('del/x.txt')).toBe(false);
      expect(await collect(s.list({ prefix: 'del/' }))).toEqual([]);
      await s.delete('del/x.txt');
    });

    it('lists exactly the keys under a prefix, recursively or one level', async () => {
      for (const k of ['ls/a/b/1.txt', 'ls/a/b/2.txt', 'ls/a/b/c/3.txt', 'ls/a/bc', 'ls/a/z.txt']) await s.write(k, k);
      expect(await collect(s.list({ prefix: 'ls/a/b/', recursive: true }))).toEqual(['ls/a/b/1.txt', 'ls/a/b/2.txt', 'ls/a/b/c/3.txt']);
      expect(await collect(s.list({ prefix: 'ls/a/b/' }))).toEqual(['ls/a/b/1.txt', 'ls/a/b/2.txt', 'ls/a/b/c/3.txt']);
      expect(await collect(s.list({ prefix: 'ls/a/b/', recursive: false }))).toEqual(['ls/a/b/1.txt', 'ls/a/b/2.txt']);
      expect(await collect(s.list({ prefix: 'ls/a/', recursive: false }))).toEqual(['ls/a/bc', 'ls/a/z.txt']);
      expect(await collect(s.list({ prefix: 'ls/a/b', recursive: true }))).toEqual(['ls/a/b/1.txt', 'ls/a/b/2.txt', 'ls/a/b/c/3.txt', 'ls/a/bc']);
      expect(await collect(s.list({ prefix: 'ls/none/' }))).toEqual([]);
      const [first] = await collect(s.list({ prefix: 'ls/a/z' }));
      expect(first).toBe('ls/a/z.txt');
      for await (const o of s.list({ prefix: 'ls/a/z' })) expect(o.size).toBe('ls/a/z.txt'.length);
    });

    it('skips folder-marker keys ending in /', async () => {
      if (!h.folderMarkers) return;
      await s.write('marker/', Buffer.alloc(0));
      await s.write('marker/sub/', Buffer.alloc(0));
      await s.write('marker/sub/f.txt', 'f');
      expect(await collect(s.list({ prefix: 'marker/' }))).toEqual(['marker/sub/f.txt']);
      expect(await collect(s.list({ prefix: 'marker/', recursive: false }))).toEqual([]);
    });

    it('handles keys with spaces and unicode', async () => {
      const keys = ['uni/dir with space/naïve – 文件 ü.txt', 'uni/emoji 😀/a+b=c&d%20e.txt'];
      for (const k of keys) await s.write(k, `body of ${k}`);
      for (const k of keys) {
        expect(await s.exists(k)).toBe(true);
        expect((await s.readBuffer(k)).toString('utf8')).toBe(`body of ${k}`);
      }
      expect((await collect(s.list({ prefix: 'uni/' }))).sort()).toEqual([...keys].sort());
      expect(await collect(s.list({ prefix: 'uni/dir with space/' }))).toEqual([keys[0]]);
      await s.delete(keys[1]);
      expect(await s.exists(keys[1])).toBe(false);
    });

    it('lists 2,500 objects in key order, lazily, one page of 1,000 at a time', async () => {
      const keys = Array.from({ length: 2500 }, (_, i) => `many/${String(i).padStart(5, '0')}.txt`);
      await eachLimit(keys, 32, (k) => s.write(k, 'x'));
      const before = h.listCalls?.() ?? 0;
      const iter = s.list({ prefix: 'many/', pageSize: 1000 })[Symbol.asyncIterator]();
      const first = await iter.next();
      expect(first.value?.key).toBe(keys[0]);
      if (h.listCalls) expect(h.listCalls() - before).toBe(1);
      const seen = [first.value!.key];
      for (let r = await iter.next(); !r.done; r = await iter.next()) seen.push(r.value.key);
      expect(seen.length).toBe(2500);
      expect(new Set(seen).size).toBe(2500);
      expect(seen).toEqual(keys);
      if (h.listCalls) expect(h.listCalls() - before).toBe(3);
    });

    it('ping succeeds on the bucket and rejects on a missing one', async () => {
      await expect(s.ping()).resolves.toBeUndefined();
      const err = await rejection(h.missing.ping());
      expect(err).toBeInstanceOf(StorageError);
      expect((err as StorageError).kind).toBe(h.missingKind);
    });

    it('reports rejected credentials as kind access_denied', async () => {
      if (!h.denied) return;
      for (const call of [() => h.denied!.ping(), () => h.denied!.head('x'), () => h.denied!.readBuffer('bin/blob.bin')]) {
        const err = await rejection(call());
        expect(err).toBeInstanceOf(StorageError);
        expect((err as StorageError).kind).toBe('access_denied');
      }
    });

    it('reports an unreachable service as kind unreachable', async () => {
      const dead = await h.unreachable();
      const calls = [() => dead.ping(), () => dead.head('x'), () => dead.readBuffer('x'), () => collect(dead.list({ prefix: '' }))];
      for (const call of h.networked ? calls : calls.slice(0, 1)) {
        const err = await rejection(call());
        expect(err).toBeInstanceOf(StorageError);
        expect((err as StorageError).kind).toBe('unreachable');
      }
    });
  });
}

/** An HTTP pass-through that counts requests matching `match` (to see list pages reach a child-process server). */
async function countingProxy(target: string, match: (req: IncomingMessage) => boolean) {
  const t = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let count = 0;
  const server = createServer((req, res) => {
    if (match(req)) count++;
    const up = request({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers, agent }, (ur) => {
      res.writeHead(ur.statusCode ?? 502, ur.headers);
      ur.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${port}`,
    count: () => count,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      agent.destroy();
    },
  };
}

contract('file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'folio-file-contract-'));
  const storage = new FileStorage(`${pathToFileURL(dir).href}/`);
  return {
    storage,
    missing: new FileStorage(`${pathToFileURL(join(dir, 'no-such-folder')).href}/`),
    missingKind: 'unreachable',
    unreachable: async () => new FileStorage(`${pathToFileURL(join(dir, 'gone')).href}/`),
    folderMarkers: false,
    networked: false,
    async stop() {
      await rm(dir, { recursive: true, force: true });
    },
  };
});

contract('s3 (s3rver)', async () => {
  const srv = await startS3rver();
  await srv.createBucket(BUCKET);
  const proxy = await countingProxy(srv.endpoint, (req) => req.method === 'GET' && /[?&]list-type=2/.test(req.url ?? ''));
  const creds = { endpoint: proxy.origin, accessKeyId: srv.accessKeyId, secretAccessKey: srv.secretAccessKey };
  return {
    storage: new S3Storage({ bucket: BUCKET, ...creds }),
    missing: new S3Storage({ bucket: 'no-such-bucket', ...creds }),
    // s3rver checks the access key id but never verifies SigV4 signatures: a wrong secret passes.
    denied: new S3Storage({ bucket: BUCKET, ...creds, accessKeyId: 'NOT-A-KEY' }),
    missingKind: 'not_found',
    // SDK defaults (3 tries, short back-off): the mapping must survive its retries.
    unreachable: async () => new S3Storage({ ...creds, bucket: BUCKET, endpoint: `http://127.0.0.1:${await freePort()}` }),
    listCalls: proxy.count,
    folderMarkers: true,
    networked: true,
    async stop() {
      await proxy.stop();
      await srv.stop();
    },
  };
});

contract('azure (Azurite)', async () => {
  const az = await startAzurite();
  await az.createContainer(BUCKET);
  const proxy = await countingProxy(az.accountUrl, (req) => req.method === 'GET' && /[?&]comp=list/.test(req.url ?? ''));
  const accountUrl = `${proxy.origin}${new URL(az.accountUrl).pathname}`;
  return {
    storage: new AzureStorage({ accountUrl, container: BUCKET, accountKey: az.accountKey }),
    missing: new AzureStorage({ accountUrl, container: 'no-such-container', accountKey: az.accountKey }),
    denied: new AzureStorage({ accountUrl, container: BUCKET, accountKey: Buffer.from('not-the-key').toString('base64') }),
    missingKind: 'not_found',
    // One try: the SDK's default back-off on refused connections adds up to ~28 s.
    unreachable: async () =>
      new AzureStorage({ accountUrl: `http://127.0.0.1:${await freePort()}/devstoreaccount1`, container: BUCKET, accountKey: az.accountKey, maxAttempts: 1 }),
    listCalls: proxy.count,
    folderMarkers: true,
    networked: true,
    async stop() {
      await proxy.stop();
      await az.stop();
    },
  };
});

contract('gcs (in-test fake JSON API)', async () => {
  const gcs = await startFakeGcs();
  await gcs.createBucket(BUCKET);
  return {
    storage: new GcsStorage({ bucket: BUCKET, endpoint: gcs.endpoint }),
    missing: new GcsStorage({ bucket: 'no-such-bucket', endpoint: gcs.endpoint }),
    missingKind: 'not_found',
    // One try: the library retries refused connections with back-off for ~15 s.
    unreachable: async () => new GcsStorage({ bucket: BUCKET, endpoint: `http://127.0.0.1:${await freePort()}`, maxAttempts: 1 }),
    listCalls: gcs.listCalls,
    folderMarkers: true,
    networked: true,
    stop: () => gcs.stop(),
  };
});

// Throttling cannot be provoked from these servers; the mapping helpers get the error shapes
// each SDK produces for it (and for the network failures the servers above do not cover).
describe('storage error mapping', () => {
  const kind = (e: unknown) => (e instanceof StorageError ? e.kind : 'unmapped');
  const s3 = (name: string, status?: number) => Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });

  it('maps S3 errors', () => {
    expect(kind(s3Error(s3('SlowDown', 503), 'x'))).toBe('throttled');
    expect(kind(s3Error(s3('TooManyRequestsException', 429), 'x'))).toBe('throttled');
    expect(kind(s3Error(s3('AccessDenied', 403), 'x'))).toBe('access_denied');
    expect(kind(s3Error(s3('Unknown', 401), 'x'))).toBe('access_denied');
    expect(kind(s3Error(s3('NoSuchKey', 404), 'x'))).toBe('not_found');
    expect(kind(s3Error(s3('TimeoutError'), 'x'))).toBe('unreachable');
    expect(kind(s3Error(Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND' }), 'x'))).toBe('unreachable');
    const refused = new AggregateError([Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })], '');
    expect(kind(s3Error(refused, 'x'))).toBe('unreachable');
    expect(kind(s3Error(s3('InternalError', 500), 'x'))).toBe('unmapped');
  });

  it('maps GCS errors', () => {
    const api = (code: number) => Object.assign(new Error('api'), { code });
    expect(kind(gcsError(api(429), 'x'))).toBe('throttled');
    expect(kind(gcsError(api(503), 'x'))).toBe('throttled');
    expect(kind(gcsError(api(403), 'x'))).toBe('access_denied');
    expect(kind(gcsError(api(401), 'x'))).toBe('access_denied');
    expect(kind(gcsError(api(404), 'x'))).toBe('not_found');
    expect(kind(gcsError(Object.assign(new Error('request failed'), { code: 'ETIMEDOUT' }), 'x'))).toBe('unreachable');
    expect(kind(gcsError(Object.assign(new Error('dns'), { code: 'EAI_AGAIN' }), 'x'))).toBe('unreachable');
    expect(kind(gcsError(api(500), 'x'))).toBe('unmapped');
  });

  it('maps Azure errors', () => {
    const rest = (statusCode: number | undefined, code: string, message = code) => Object.assign(new Error(message), { statusCode, code });
    expect(kind(azureError(rest(503, 'ServerBusy'), 'x'))).toBe('throttled');
    expect(kind(azureError(rest(429, 'TooManyRequests'), 'x'))).toBe('throttled');
    expect(kind(azureError(rest(403, 'AuthorizationFailure'), 'x'))).toBe('access_denied');
    expect(kind(azureError(rest(404, 'BlobNotFound'), 'x'))).toBe('not_found');
    expect(kind(azureError(rest(undefined, 'REQUEST_SEND_ERROR', 'getaddrinfo ENOTFOUND acct.blob.core.windows.net'), 'x'))).toBe('unreachable');
    expect(kind(azureError(rest(500, 'InternalError'), 'x'))).toBe('unmapped');
  });
});
