import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../appliance/db.js';
import { createDelivery, type DeliveryWorkerOptions, getDelivery, startDeliveryWorker, type WebhookContext } from '../../appliance/webhooks/deliveries.js';
import { pcoWebhookRoutes } from '../../appliance/webhooks/routes.js';
import { WebhookSecrets } from '../../appliance/webhooks/secrets.js';
import { verify } from '../../appliance/webhooks/signing.js';
import { loadConfig } from '../../core/config.js';
import { toApiError } from '../../core/errors.js';
import { createLogger } from '../../core/logging.js';
import { Queues } from '../../core/queue/index.js';
import { bullmqConnection } from '../../core/redis.js';
import { GuardedFetchError, guardedFetch } from '../../core/ssrf.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { waitFor } from '../support/ports.js';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}
type Answer = (req: Received, n: number) => { status: number; headers?: Record<string, string> } | 'hang';

/** A real HTTP(S) receiver on loopback that records every request and counts TCP connections. */
async function receiver(answer: Answer, tls?: { key: string; cert: string }) {
  const requests: Received[] = [];
  let connections = 0;
  const handler: http.RequestListener = (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const r = { path: req.url ?? '', headers: req.headers, body, at: Date.now() };
      requests.push(r);
      const a = answer(r, requests.length);
      if (a !== 'hang') res.writeHead(a.status, a.headers).end('ok');
    });
  };
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    requests,
    connections: () => connections,
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let redis: TestRedis;
let tmp: string;
const cleanups: Array<() => Promise<void> | void> = [];

/** A context of its own (queue prefix, SQLite file) with a delivery worker using `opts`. */
async function webhookEnv(opts: Partial<DeliveryWorkerOptions> = {}) {
  const prefix = `test-${randomUUID()}`;
  const connection: Redis = bullmqConnection(redis.url);
  const workerConnection: Redis = bullmqConnection(redis.url);
  const db = openDatabase(join(tmp, `${prefix}.sqlite`));
  const config = loadConfig({ FOLIO_DATA_DIR: tmp, FOLIO_QUEUE_PREFIX: prefix, FOLIO_ALLOW_PRIVATE_URLS: 'true' });
  const ctx: WebhookContext = {
    config,
    db,
    queues: new Queues(connection, prefix),
    logger: createLogger({ name: 'test', level: 'silent' }),
    now: () => Date.now(),
  };
  const worker = await startDeliveryWorker(ctx, { connection: workerConnection, allowPrivate: true, delayScale: 0.001, ...opts });
  cleanups.push(async () => {
    await worker.stop();
    await ctx.queues.close();
    connection.disconnect();
    workerConnection.disconnect();
    db.close();
  });
  const settled = (id: string) =>
    waitFor(
      () => {
        const d = getDelivery(ctx, id);
        return d && d.status !== 'pending' && d;
      },
      20_000,
      20,
    );
  return { ctx, settled, secrets: (key = 'pco') => new WebhookSecrets({ db, key, now: ctx.now }) };
}

const event = (fileId: string) => ({ event: 'file.completed', file_id: fileId, status: 'completed', num_pages: 1, num_pages_completed: 1 });
const quiet = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  redis = await startRedis();
  tmp = mkdtempSync(join(tmpdir(), 'folio-webhooks-'));
});
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  await redis?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

describe('delivery worker (lab mode, loopback receivers)', () => {
  let env: Awaited<ReturnType<typeof webhookEnv>>;
  beforeAll(async () => {
    env = await webhookEnv();
  });

  it('delivers on 2xx with a verifiable signature, JSON body and the callback headers', async () => {
    const rx = await receiver(() => ({ status: 204 }));
    cleanups.push(rx.close);
    const { deliveryId, created } = await createDelivery(env.ctx, {
      scope: 'pco',
      url: `${rx.url}/hook?k=1`,
      headers: { 'X-Token': 'abc' },
      event: 'file.completed',
      payload: event('f-1'),
      dedupeKey: 'file.completed:f-1',
      jobId: 'job-a',
      fileId: 'f-1',
    });
    expect(created).toBe(true);
    const d = await env.settled(deliveryId);
    expect(d).toMatchObject({ status: 'delivered', attempts: 1, last_http_status: 204, last_error: null });
    expect(rx.requests).toHaveLength(1);
    const [r] = rx.requests;
    expect(r!.path).toBe('/hook?k=1');
    expect(JSON.parse(r!.body)).toEqual(event('f-1'));
    expect(r!.headers).toMatchObject({ 'x-token': 'abc', 'content-type': 'application/json' });
    expect(r!.headers['user-agent']).toMatch(/^Folio-Webhooks\//);
    const sig = r!.headers['service-signature'] as string;
    expect(sig).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verify(sig, r!.body, env.secrets().activeSecrets(), Date.now())).toBe(true);
  });

  it('tries a receiver that always answers 500 exactly 8 times, with growing delays, then fails', async () => {
    const rx = await receiver(() => ({ status: 500 }));
    cleanups.push(rx.close);
    const { deliveryId } = await createDelivery(env.ctx, {
      scope: 'pco',
      url: rx.url,
      event: 'file.error',
      payload: event('f-500'),
      dedupeKey: 'file.error:f-500',
    });
    expect(await env.settled(deliveryId)).toMatchObject({
      status: 'failed',
      attempts: 8,
      last_http_status: 500,
      last_error: 'HTTP 500',
      next_attempt_at: null,
    });
    await quiet(300);
    expect(rx.requests).toHaveLength(8);
    // scaled schedule: 15 ms … 1.5 s; the last wait is the longest
    const gaps = rx.requests.slice(1).map((r, i) => r.at - rx.requests[i]!.at);
    expect(gaps[6]!).toBeGreaterThanOrEqual(1400);
    expect(gaps[6]!).toBeGreaterThan(gaps[0]!);
  });

  it('marks a 400 answer failed after exactly one attempt', async () => {
    const rx = await receiver(() => ({ status: 400 }));
    cleanups.push(rx.close);
    const { deliveryId } = await createDelivery(env.ctx, {
      scope: 'pco',
      url: rx.url,
      event: 'file.completed',
      payload: event('f-400'),
      dedupeKey: 'file.completed:f-400',
    });
    expect(await env.settled(deliveryId)).toMatchObject({ status: 'failed', attempts: 1, last_http_status: 400 });
    await quiet(300);
    expect(rx.requests).toHaveLength(1);
  });

  it('does not follow a 302 and counts it as a failed attempt', async () => {
    const target = await receiver(() => ({ status: 200 }));
    const rx = await receiver(() => ({ status: 302, headers: { location: `${target.url}/stolen` } }));
    cleanups.push(rx.close, target.close);
    const { deliveryId } = await createDelivery(env.ctx, {
      scope: 'pco',
      url: rx.url,
      event: 'job.completed',
      payload: { event: 'job.completed', job_id: 'j-302' },
      dedupeKey: 'job.completed:j-302',
    });
    await waitFor(() => (getDelivery(env.ctx, deliveryId)?.attempts ?? 0) >= 1, 10_000, 10);
    expect(getDelivery(env.ctx, deliveryId)).toMatchObject({ last_http_status: 302, last_error: 'redirect 302 not followed' });
    expect(await env.settled(deliveryId)).toMatchObject({ status: 'failed', attempts: 8 });
    expect(rx.requests).toHaveLength(8);
    expect(target.requests).toHaveLength(0);
    expect(target.connections()).toBe(0);
  });

  it('retries after a timeout and records no HTTP status for it', async () => {
    const hanging = await webhookEnv({ timeoutMs: 300 });
    const rx = await receiver((_, n) => (n === 1 ? 'hang' : { status: 200 }));
    cleanups.push(rx.close);
    const { deliveryId } = await createDelivery(hanging.ctx, {
      scope: 'pco',
      url: rx.url,
      event: 'file.completed',
      payload: event('f-slow'),
      dedupeKey: 'file.completed:f-slow',
    });
    await waitFor(() => (getDelivery(hanging.ctx, deliveryId)?.attempts ?? 0) >= 1, 10_000, 10);
    expect(getDelivery(hanging.ctx, deliveryId)).toMatchObject({ status: 'pending', last_http_status: null });
    expect(getDelivery(hanging.ctx, deliveryId)!.last_error).toMatch(/timeout/);
    expect(await hanging.settled(deliveryId)).toMatchObject({ status: 'delivered', attempts: 2, last_http_status: 200 });
  });

  it('signs with both secrets during a rotation grace period, each verifying on its own', async () => {
    const rx = await receiver(() => ({ status: 200 }));
    cleanups.push(rx.close);
    const store = env.secrets('app-rotation');
    const old = store.getOrCreate().secret;
    const next = store.rotate().secret;
    const { deliveryId } = await createDelivery(env.ctx, {
      scope: 'app-rotation',
      url: rx.url,
      event: 'file.completed',
      payload: event('f-rot'),
      dedupeKey: 'file.completed:f-rot',
    });
    await env.settled(deliveryId);
    const { body, headers } = rx.requests[0]!;
    const sig = headers['service-signature'] as string;
    expect(sig.match(/v1=/g)).toHaveLength(2);
    expect(verify(sig, body, [old], Date.now())).toBe(true);
    expect(verify(sig, body, [next], Date.now())).toBe(true);
    store.rotate(true);
    expect(verify(sig, body, store.activeSecrets(), Date.now())).toBe(false);
  });

  it('creates one delivery per dedupe key and sends it once', async () => {
    const rx = await receiver(() => ({ status: 200 }));
    cleanups.push(rx.close);
    const input = { scope: 'pco', url: rx.url, event: 'file.completed', payload: event('f-dup'), dedupeKey: 'file.completed:f-dup', jobId: 'job-dup' };
    const first = await createDelivery(env.ctx, input);
    const second = await createDelivery(env.ctx, input);
    expect(second).toEqual({ deliveryId: first.deliveryId, created: false });
    await env.settled(first.deliveryId);
    expect((await createDelivery(env.ctx, input)).created).toBe(false);
    await quiet(300);
    expect(rx.requests).toHaveLength(1);
  });
});

describe('SSRF guard on real sockets', () => {
  it('with private URLs not allowed, a loopback listener receives zero connections', async () => {
    const env = await webhookEnv({ allowPrivate: false, resolve: async () => ['127.0.0.1'] });
    let connections = 0;
    const server = net.createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
    const port = (server.address() as net.AddressInfo).port;
    const urls = [
      `https://127.0.0.1:${port}/`,
      `https://127.1:${port}/`,
      `https://2130706433:${port}/`,
      `https://[::ffff:127.0.0.1]:${port}/`,
      `https://localhost:${port}/`,
      `https://hooks.example.test:${port}/`,
      `http://127.0.0.1:${port}/`,
    ];
    for (const [i, url] of urls.entries()) {
      const { deliveryId } = await createDelivery(env.ctx, {
        scope: 'pco',
        url,
        event: 'file.error',
        payload: event(`ssrf-${i}`),
        dedupeKey: `file.error:ssrf-${i}`,
      });
      expect(await env.settled(deliveryId), url).toMatchObject({ status: 'failed', attempts: 1, last_http_status: null });
    }
    await quiet(200);
    expect(connections).toBe(0);
  });

  it('connects to the checked address, never to a second DNS answer, and returns a 3xx unfollowed', async () => {
    const rx = await receiver(() => ({ status: 307, headers: { location: 'http://127.0.0.1:1/' } }));
    cleanups.push(rx.close);
    let lookups = 0;
    const res = await guardedFetch(
      `http://rebind.example.test:${rx.port}/p`,
      {},
      {
        allowPrivate: true,
        schemes: ['http'],
        resolve: async () => (lookups++ ? ['10.9.9.9'] : ['127.0.0.1']),
      },
    );
    expect(res.status).toBe(307);
    expect(lookups).toBe(1);
    expect(rx.requests[0]!.headers.host).toBe(`rebind.example.test:${rx.port}`);
  });

  it('gives up on a silent server at the timeout', async () => {
    const rx = await receiver(() => 'hang');
    cleanups.push(rx.close);
    const started = Date.now();
    const err = await guardedFetch(rx.url, {}, { allowPrivate: true, schemes: ['http'], timeoutMs: 250 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GuardedFetchError);
    expect((err as GuardedFetchError).kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('https receivers', () => {
  let tls: { key: string; cert: string };
  beforeAll(() => {
    const dir = mkdtempSync(join(tmp, 'tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-subj',
        '/CN=localhost',
        '-days',
        '1',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    tls = { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  });

  it('delivers over https to a receiver whose certificate is trusted through ca', async () => {
    const env = await webhookEnv({ ca: tls.cert, resolve: async () => ['127.0.0.1'] });
    const rx = await receiver(() => ({ status: 200 }), tls);
    cleanups.push(rx.close);
    const { deliveryId } = await createDelivery(env.ctx, {
      scope: 'pco',
      url: `https://localhost:${rx.port}/tls`,
      event: 'file.completed',
      payload: event('f-tls'),
      dedupeKey: 'file.completed:f-tls',
    });
    expect(await env.settled(deliveryId)).toMatchObject({ status: 'delivered', attempts: 1, last_http_status: 200 });
    const { body, headers } = rx.requests[0]!;
    expect(verify(headers['service-signature'] as string, body, env.secrets().activeSecrets(), Date.now())).toBe(true);
  });

  it('fails the test send when the certificate is not trusted', async () => {
    const env = await webhookEnv();
    const rx = await receiver(() => ({ status: 200 }), tls);
    cleanups.push(rx.close);
    const app = new Hono().route('/', pcoWebhookRoutes(env.ctx, { resolve: async () => ['127.0.0.1'] }));
    const res = await app.request('/pco/v1/webhook-config/test', { method: 'POST', body: JSON.stringify({ callback_url: `https://localhost:${rx.port}/` }) });
    expect(await res.json()).toMatchObject({ status: 'failed', response_code: null, detail: expect.stringMatching(/certificate/) });
    expect(rx.requests).toHaveLength(0);
  });
});

describe('/pco/v1 webhook routes', () => {
  let env: Awaited<ReturnType<typeof webhookEnv>>;
  let app: Hono;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await app.request(path, { method, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  beforeAll(async () => {
    env = await webhookEnv();
    app = new Hono();
    app.route('/', pcoWebhookRoutes(env.ctx));
    // the same rendering as appliance/http/app.ts
    app.onError((err) => {
      const e = toApiError(err);
      return Response.json(e.toBody(), { status: e.status });
    });
  });

  it('GET webhook-config creates the secret once', async () => {
    const a = await call('GET', '/pco/v1/webhook-config');
    expect(a).toMatchObject({ status: 200, body: { secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/), previous_secret_expires_at: null } });
    expect((await call('GET', '/pco/v1/webhook-config')).body.secret).toBe(a.body.secret);
  });

  it('rotates with a grace period, refuses a second rotation with 409, replaces at once with force', async () => {
    const before = (await call('GET', '/pco/v1/webhook-config')).body.secret;
    const rotated = await call('POST', '/pco/v1/webhook-config/secret');
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(before);
    expect(Date.parse(rotated.body.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    const conflict = await call('POST', '/pco/v1/webhook-config/secret', { force: false });
    expect(conflict).toMatchObject({ status: 409, body: { error: 'conflict', error_info: { id: 'conflict' } } });
    expect((await call('GET', '/pco/v1/webhook-config')).body).toEqual(rotated.body);
    const forced = await call('POST', '/pco/v1/webhook-config/secret', { force: true });
    expect(forced).toMatchObject({ status: 200, body: { previous_secret_expires_at: null } });
    expect(forced.body.secret).not.toBe(rotated.body.secret);
  });

  it('answers 400 bad_request for a force that is not a boolean, null included, and for bad bodies', async () => {
    for (const body of [{ force: null }, { force: 'true' }, { force: 1 }, '[]', 'not json', '"x"']) {
      expect((await call('POST', '/pco/v1/webhook-config/secret', body)).body.error, JSON.stringify(body)).toBe('bad_request');
    }
  });

  it('sends one signed test notification and reports delivered or failed', async () => {
    const ok = await receiver(() => ({ status: 200 }));
    const down = await receiver(() => ({ status: 503 }));
    cleanups.push(ok.close, down.close);
    const delivered = await call('POST', '/pco/v1/webhook-config/test', { callback_url: `${ok.url}/t`, callback_headers: { 'X-Env': 'lab' } });
    expect(delivered).toEqual({ status: 200, body: { status: 'delivered', response_code: 200, detail: null } });
    const r = ok.requests[0]!;
    expect(JSON.parse(r.body)).toMatchObject({ event: 'file.completed', file_id: '00000000-0000-0000-0000-000000000000' });
    expect(r.headers['x-env']).toBe('lab');
    const secret = (await call('GET', '/pco/v1/webhook-config')).body.secret as string;
    expect(verify(r.headers['service-signature'] as string, r.body, [secret], Date.now())).toBe(true);
    const failed = await call('POST', '/pco/v1/webhook-config/test', { callback_url: down.url });
    expect(failed).toEqual({ status: 200, body: { status: 'failed', response_code: 503, detail: 'HTTP 503' } });
    await quiet(200);
    expect(down.requests).toHaveLength(1);
  });

  it('answers 400 bad_request to a test without body, url, or with bad callback parameters', async () => {
    for (const body of [
      undefined,
      {},
      { callback_url: 42 },
      { callback_url: null },
      { callback_url: 'ftp://x/' },
      { callback_url: 'https://x.test/', callback_headers: { Host: 'a' } },
    ]) {
      const res = await call('POST', '/pco/v1/webhook-config/test', body);
      expect(res, JSON.stringify(body)).toMatchObject({ status: 400, body: { error: 'bad_request' } });
    }
  });

  it('lists the deliveries of a job with status, attempts and last HTTP status', async () => {
    const rx = await receiver((r) => ({ status: r.body.includes('file.error') ? 410 : 200 }));
    cleanups.push(rx.close);
    const a = await createDelivery(env.ctx, {
      scope: 'pco',
      url: rx.url,
      event: 'file.completed',
      payload: event('d-1'),
      dedupeKey: 'file.completed:d-1',
      jobId: 'job-list',
      fileId: 'd-1',
    });
    const b = await createDelivery(env.ctx, {
      scope: 'pco',
      url: rx.url,
      event: 'file.error',
      payload: { event: 'file.error', file_id: 'd-2' },
      dedupeKey: 'file.error:d-2',
      jobId: 'job-list',
      fileId: 'd-2',
    });
    await env.settled(a.deliveryId);
    await env.settled(b.deliveryId);
    const res = await call('GET', '/pco/v1/deliveries?job_id=job-list');
    expect(res.status).toBe(200);
    expect(res.body.deliveries).toEqual([
      {
        delivery_id: a.deliveryId,
        event: 'file.completed',
        status: 'delivered',
        attempts: 1,
        last_http_status: 200,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        url: rx.url,
      },
      {
        delivery_id: b.deliveryId,
        event: 'file.error',
        status: 'failed',
        attempts: 1,
        last_http_status: 410,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        url: rx.url,
      },
    ]);
    expect((await call('GET', '/pco/v1/deliveries?job_id=nothing')).body).toEqual({ deliveries: [] });
    expect((await call('GET', '/pco/v1/deliveries')).status).toBe(400);
  });
});
