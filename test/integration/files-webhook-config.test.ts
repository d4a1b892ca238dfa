import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';

// Files API webhook configuration (spec 4.12, 3.7, 6.2) against a real appliance process and a
// real loopback receiver (lab mode allows http:// and loopback callback URLs).
const ZERO_FILE_ID = '00000000-0000-0000-0000-000000000000';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver answering `status`, recording every request. */
async function receiver(status: number) {
  const requests: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      requests.push({ headers: req.headers, body });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The receiver's side of spec 6.2, written here from the spec rather than imported: HMAC-SHA256 over `<t>.<body>`. */
function signatures(header: string): { t: string; v1: string[] } {
  const parts = header.split(',').map((p) => p.split('=') as [string, string]);
  return { t: parts.find(([k]) => k === 't')![1], v1: parts.filter(([k]) => k === 'v1').map(([, v]) => v) };
}
const hmac = (secret: string, t: string, body: string) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');

describe('Files API webhook configuration', () => {
  let app: ApplianceProcess;
  let ok: Awaited<ReturnType<typeof receiver>>;
  let failing: Awaited<ReturnType<typeof receiver>>;

  async function call(method: string, path: string, init: { key?: string; body?: unknown } = {}) {
    const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    const res = await fetch(app.url + path, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(init.key ? { app_key: init.key } : {}) },
      body,
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as any };
  }
  async function newApp(name: string, group: string) {
    const created = await call('POST', '/pco/v1/apps', { body: { name, group_id: group } });
    const key = async () => (await call('POST', `/pco/v1/apps/${created.body.app_id}/keys`)).body.app_key as string;
    return { key };
  }

  beforeAll(async () => {
    [app, ok, failing] = await Promise.all([
      spawnAppliance({ FOLIO_SPAWN_WORKERS: 'false', FOLIO_ALLOW_PRIVATE_URLS: 'true' }, { waitHealthy: false }),
      receiver(200),
      receiver(500),
    ]);
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
    await Promise.all([ok?.close(), failing?.close()]);
  });

  it('answers 401 unauthorized without a valid app_key', async () => {
    for (const [method, path] of [
      ['GET', '/files/v1/webhook-config'],
      ['POST', '/files/v1/webhook-config/secret'],
      ['POST', '/files/v1/webhook-config/test'],
    ]) {
      const missing = await call(method!, path!);
      expect([missing.status, missing.body.error, missing.body.error_info.message]).toEqual([401, 'unauthorized', 'Missing app_key']);
      expect((await call(method!, path!, { key: 'app_x_00' })).body.error_info.message).toBe('Invalid app_key');
    }
  });

  it('creates the secret on first GET and shares it across the keys of an application, not beyond (4.12)', async () => {
    const a = await newApp('cfg-a', 'wh-group-a');
    const [k1, k2] = [await a.key(), await a.key()];
    // Another application of the same group has its own secret.
    const other = await (await newApp('cfg-b', 'wh-group-a')).key();
    const first = await call('GET', '/files/v1/webhook-config', { key: k1 });
    expect(first.status).toBe(200);
    expect(first.body.signing_secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect((await call('GET', '/files/v1/webhook-config', { key: k1 })).body).toEqual(first.body);
    expect((await call('GET', '/files/v1/webhook-config', { key: k2 })).body).toEqual(first.body);
    expect((await call('GET', '/files/v1/webhook-config', { key: other })).body.signing_secret).not.toBe(first.body.signing_secret);
  });

  it('rotates through the 3.7 states and signs the test notification with both secrets during grace', async () => {
    const key = await (await newApp('rotator', 'wh-group-rot')).key();
    const fresh = await call('POST', '/files/v1/webhook-config/secret', { key });
    expect([fresh.status, fresh.body.previous_secret_expires_at]).toEqual([200, null]); // no secret yet: one, at once
    const old = fresh.body.signing_secret as string;

    const before = Date.now();
    const rotated = await call('POST', '/files/v1/webhook-config/secret', { key, body: { force: false } });
    expect(rotated.status).toBe(200);
    expect(rotated.body.signing_secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(rotated.body.signing_secret).not.toBe(old);
    const grace = Date.parse(rotated.body.previous_secret_expires_at) - before;
    expect(grace).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(grace).toBeLessThanOrEqual(24 * 3600_000 + 60_000);
    const again = await call('POST', '/files/v1/webhook-config/secret', { key });
    expect([again.status, again.body.error]).toEqual([409, 'conflict']);
    expect((await call('GET', '/files/v1/webhook-config', { key })).body.signing_secret).toBe(rotated.body.signing_secret);

    const tested = await call('POST', '/files/v1/webhook-config/test', { key, body: { callback_url: ok.url, callback_headers: { 'X-Tenant': 'acme' } } });
    expect(tested.body).toEqual({ status: 'delivered', response_code: 200, detail: null });
    const delivered = ok.requests.at(-1)!;
    expect(JSON.parse(delivered.body)).toEqual({ event: 'file.completed', file_id: ZERO_FILE_ID, status: 'completed', num_pages: 1, num_pages_completed: 1 });
    expect(delivered.headers['x-tenant']).toBe('acme');
    const sig = signatures(delivered.headers['service-signature'] as string);
    expect(Math.abs(Number(sig.t) - Date.now() / 1000)).toBeLessThan(300);
    expect(sig.v1).toEqual([hmac(rotated.body.signing_secret, sig.t, delivered.body), hmac(old, sig.t, delivered.body)]);

    const forced = await call('POST', '/files/v1/webhook-config/secret', { key, body: { force: true } });
    expect([forced.status, forced.body.previous_secret_expires_at]).toEqual([200, null]);
    await call('POST', '/files/v1/webhook-config/test', { key, body: { callback_url: ok.url } });
    const single = ok.requests.at(-1)!;
    const after = signatures(single.headers['service-signature'] as string);
    expect(after.v1).toEqual([hmac(forced.body.signing_secret, after.t, single.body)]);
  });

  it('answers 400 bad_request for a non-boolean force, null included, and changes nothing', async () => {
    const key = await (await newApp('forcer', 'wh-group-force')).key();
    const secret = (await call('GET', '/files/v1/webhook-config', { key })).body.signing_secret;
    for (const force of [null, 'true', 1, {}]) {
      const res = await call('POST', '/files/v1/webhook-config/secret', { key, body: { force } });
      expect([res.status, res.body.error], JSON.stringify(force)).toEqual([400, 'bad_request']);
    }
    expect((await call('POST', '/files/v1/webhook-config/secret', { key, body: '{"force": tru' })).status).toBe(400);
    expect((await call('GET', '/files/v1/webhook-config', { key })).body.signing_secret).toBe(secret);
  });

  it('reports a refusing endpoint in the answer after a single attempt', async () => {
    const key = await (await newApp('tester', 'wh-group-test')).key();
    const res = await call('POST', '/files/v1/webhook-config/test', { key, body: { callback_url: failing.url } });
    expect([res.status, res.body]).toEqual([200, { status: 'failed', response_code: 500, detail: 'HTTP 500' }]);
    await new Promise((r) => setTimeout(r, 500));
    expect(failing.requests).toHaveLength(1);
    for (const body of [
      undefined,
      {},
      { callback_url: 42 },
      { callback_url: 'ftp://example.com/x' },
      { callback_url: ok.url, callback_headers: { Host: 'x' } },
    ]) {
      const bad = await call('POST', '/files/v1/webhook-config/test', { key, body });
      expect([bad.status, bad.body.error], JSON.stringify(body)).toEqual([400, 'bad_request']);
    }
  });

  it('allows 10 tests per minute per app_key, then 429 http_max_requests', async () => {
    const owner = await newApp('limited', 'wh-group-limit');
    const [key, sibling] = [await owner.key(), await owner.key()];
    // The window is the calendar minute: start early in one so all eleven calls share it.
    const second = new Date().getSeconds();
    if (second > 45) await new Promise((r) => setTimeout(r, (61 - second) * 1000));
    for (let i = 0; i < 10; i++) {
      expect((await call('POST', '/files/v1/webhook-config/test', { key, body: { callback_url: ok.url } })).body.status, `test ${i + 1}`).toBe('delivered');
    }
    const refused = await call('POST', '/files/v1/webhook-config/test', { key, body: { callback_url: ok.url } });
    expect([refused.status, refused.body.error]).toEqual([429, 'http_max_requests']);
    expect(refused.body.error_info).toMatchObject({ limit_value: 10, count: 11 });
    expect((await call('POST', '/files/v1/webhook-config/test', { key: sibling, body: { callback_url: ok.url } })).body.status).toBe('delivered');
  });
});
