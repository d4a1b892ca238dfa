/**
 * A minimal in-process fake of the Google Cloud Storage JSON API, for tests.
 *
 * It exists because no runnable GCS server is available here: fake-gcs-server is a Go binary
 * that is not on npm, and the only npm candidate (mock-gcs) replaces the SDK objects rather than
 * serving HTTP, so it would not exercise the adapter's real use of @google-cloud/storage.
 *
 * It implements only what core/storage/gcs.ts uses: bucket get, objects list (prefix, delimiter,
 * maxResults, pageToken), object metadata, media download (?alt=media), simple and multipart
 * upload to /upload/storage/v1/b/<bucket>/o, and delete. Objects live in a Map.
 */
import { CRC32C } from '@google-cloud/storage';
import { createHash } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { freePort } from './ports.js';

interface FakeObject {
  data: Buffer;
  contentType: string;
  generation: number;
  updated: string;
  md5: string;
  crc32c: string;
}

export interface FakeGcs {
  /** The apiEndpoint for @google-cloud/storage, e.g. http://127.0.0.1:<port>. */
  endpoint: string;
  createBucket(name: string): Promise<void>;
  /** Number of object-listing requests served so far. */
  listCalls(): number;
  stop(): Promise<void>;
}

export async function startFakeGcs(): Promise<FakeGcs> {
  const buckets = new Map<string, Map<string, FakeObject>>();
  let listCalls = 0;
  let generation = 1;

  const meta = (bucket: string, name: string, o: FakeObject) => ({
    kind: 'storage#object',
    id: `${bucket}/${name}/${o.generation}`,
    name,
    bucket,
    generation: String(o.generation),
    metageneration: '1',
    contentType: o.contentType,
    size: String(o.data.length),
    md5Hash: o.md5,
    crc32c: o.crc32c,
    etag: `"${o.md5}"`,
    timeCreated: o.updated,
    updated: o.updated,
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const q = url.searchParams;
    const upload = url.pathname.match(/^\/upload\/storage\/v1\/b\/([^/]+)\/o$/);
    const objects = url.pathname.match(/^\/storage\/v1\/b\/([^/]+)\/o$/);
    const object = url.pathname.match(/^\/storage\/v1\/b\/([^/]+)\/o\/(.+)$/);
    const bucketOnly = url.pathname.match(/^\/storage\/v1\/b\/([^/]+)$/);
    const bucketName = decodeURIComponent((upload ?? objects ?? object ?? bucketOnly)?.[1] ?? '');
    const bucket = buckets.get(bucketName);
    if (!bucket) return error(res, 404, 'notFound', `bucket ${bucketName} not found`);

    if (bucketOnly && req.method === 'GET') {
      return json(res, 200, { kind: 'storage#bucket', id: bucketName, name: bucketName, location: 'US', storageClass: 'STANDARD' });
    }
    if (upload && req.method === 'POST') {
      const body = await readBody(req);
      let name = q.get('name') ?? '';
      let data = body;
      let contentType = req.headers['content-type'] ?? 'application/octet-stream';
      if (q.get('uploadType') === 'multipart') {
        const [metaPart, mediaPart] = parseMultipart(body, contentType);
        const m = JSON.parse(metaPart.body.toString('utf8')) as { name?: string; contentType?: string };
        name = m.name ?? name;
        data = mediaPart.body;
        contentType = m.contentType ?? mediaPart.contentType ?? 'application/octet-stream';
      } else if (q.get('uploadType') !== 'media') {
        return error(res, 400, 'invalid', `uploadType ${q.get('uploadType')} not supported by the fake`);
      }
      if (!name) return error(res, 400, 'required', 'object name required');
      const crc = new CRC32C();
      crc.update(data);
      const o: FakeObject = {
        data,
        contentType,
        generation: generation++,
        updated: new Date().toISOString(),
        md5: createHash('md5').update(data).digest('base64'),
        crc32c: crc.toString(),
      };
      bucket.set(name, o);
      return json(res, 200, meta(bucketName, name, o));
    }
    if (objects && req.method === 'GET') {
      listCalls++;
      return json(res, 200, list(bucketName, bucket, q));
    }
    if (object) {
      const name = decodeURIComponent(object[2]);
      const o = bucket.get(name);
      if (!o) return error(res, 404, 'notFound', `No such object: ${bucketName}/${name}`);
      if (req.method === 'DELETE') {
        bucket.delete(name);
        res.writeHead(204).end();
        return;
      }
      if (req.method === 'GET' && q.get('alt') === 'media') {
        res.writeHead(200, {
          'content-type': o.contentType,
          'content-length': o.data.length,
          'x-goog-hash': `crc32c=${o.crc32c},md5=${o.md5}`,
          'x-goog-stored-content-encoding': 'identity',
          'x-goog-generation': String(o.generation),
        });
        res.end(o.data);
        return;
      }
      if (req.method === 'GET') return json(res, 200, meta(bucketName, name, o));
    }
    return error(res, 400, 'invalid', `${req.method} ${url.pathname} not supported by the fake`);
  };

  function list(bucketName: string, bucket: Map<string, FakeObject>, q: URLSearchParams) {
    const prefix = q.get('prefix') ?? '';
    const delimiter = q.get('delimiter') ?? '';
    const max = Math.min(Number(q.get('maxResults') ?? 1000) || 1000, 1000);
    const after = q.get('pageToken') ? Buffer.from(q.get('pageToken')!, 'base64url').toString('utf8') : undefined;
    // Objects and collapsed prefixes share one sorted sequence, as on GCS.
    const entries = new Map<string, string | null>();
    for (const name of bucket.keys()) {
      if (!name.startsWith(prefix)) continue;
      const cut = delimiter ? name.indexOf(delimiter, prefix.length) : -1;
      if (cut >= 0) entries.set(name.slice(0, cut + delimiter.length), null);
      else entries.set(name, name);
    }
    const sorted = [...entries.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    const start = after === undefined ? 0 : sorted.findIndex((k) => Buffer.compare(Buffer.from(k), Buffer.from(after)) > 0);
    const page = start < 0 ? [] : sorted.slice(start, start + max);
    const more = start >= 0 && start + max < sorted.length;
    const items = page.filter((k) => entries.get(k) !== null).map((k) => meta(bucketName, k, bucket.get(k)!));
    const prefixes = page.filter((k) => entries.get(k) === null);
    return {
      kind: 'storage#objects',
      ...(items.length ? { items } : {}),
      ...(prefixes.length ? { prefixes } : {}),
      ...(more ? { nextPageToken: Buffer.from(page[page.length - 1]).toString('base64url') } : {}),
    };
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err) => error(res, 500, 'backendError', String(err)));
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async createBucket(name) {
      buckets.set(name, new Map());
    },
    listCalls: () => listCalls,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));
}

function error(res: ServerResponse, code: number, reason: string, message: string): void {
  json(res, code, { error: { code, message, errors: [{ domain: 'global', reason, message }] } });
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Splits a multipart/related body into its parts (headers are only scanned for Content-Type). */
function parseMultipart(body: Buffer, contentType: string): { contentType?: string; body: Buffer }[] {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  if (!boundary) throw new Error('multipart upload without a boundary');
  const delim = Buffer.from(`--${boundary}`);
  const parts: { contentType?: string; body: Buffer }[] = [];
  let pos = body.indexOf(delim);
  while (pos >= 0) {
    const start = pos + delim.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delim, start);
    if (next < 0) break;
    const part = body.subarray(start + 2, next - 2); // drop the CRLF after the delimiter and before the next
    const headerEnd = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, headerEnd).toString('utf8');
    parts.push({ contentType: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1], body: part.subarray(headerEnd + 4) });
    pos = next;
  }
  return parts;
}
