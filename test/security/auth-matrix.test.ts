import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { pcoClient } from '../support/pco-client.js';
import { envelopeProblem, send } from './support.js';

// QUALITY.md 12: every credentialed route mounted today × every kind of bad credential gives the
// spec's 401 unauthorized envelope, and no key, token or secret reaches the appliance's log.
describe('auth matrix over the credentialed routes', () => {
  let app: ApplianceProcess;
  let pco: ReturnType<typeof pcoClient>;
  const secrets: string[] = [];
  let good: { app_id: string; app_key: string };
  let other: { app_id: string; app_key: string };
  let revoked: { app_id: string; app_key: string };
  let expiredToken: { app_token: string; app_token_expires_at: number };
  let freshToken: string;
  let pdfId: string;
  let conversionId: string;

  const newKey = async (appId: string) => {
    const key = (await pco.call('POST', `/pco/v1/apps/${appId}/keys`)).body;
    secrets.push(key.app_key);
    return key as { app_id: string; app_key: string; key_id: string };
  };
  const token = async (appKey: string, body?: unknown) => {
    const res = await send(app.url, 'POST', '/v3/app-tokens', body === undefined ? undefined : JSON.stringify(body), { app_key: appKey });
    expect(res.status).toBe(200);
    secrets.push(res.body.app_token);
    return res.body as { app_token: string; app_token_expires_at: number };
  };

  beforeAll(async () => {
    // debug: the most verbose log, so a leak anywhere in the request path shows up.
    app = await spawnAppliance({ FOLIO_LOG_LEVEL: 'debug', FOLIO_DOCUMENT_WORKERS: '1' });
    pco = pcoClient(app.url);
    const a = (await pco.call('POST', '/pco/v1/apps', { name: 'alpha' })).body;
    const b = (await pco.call('POST', '/pco/v1/apps', { name: 'beta', group_id: 'other-group' })).body;
    good = await newKey(a.app_id);
    other = await newKey(b.app_id);
    const r = await newKey(a.app_id);
    revoked = r;
    expiredToken = await token(good.app_key, { expires: 30 });
    freshToken = (await token(good.app_key)).app_token;
    // A token issued by the key before revocation: revocation takes it along.
    secrets.push((await token(r.app_key)).app_token);
    expect((await pco.call('DELETE', `/pco/v1/keys/${r.key_id}`)).status).toBe(200);
    // Webhook signing secrets, current and rotated.
    secrets.push((await pco.call('GET', '/pco/v1/webhook-config')).body.secret);
    const rotated = await pco.call('POST', '/pco/v1/webhook-config/secret', {});
    if (rotated.body?.secret) secrets.push(rotated.body.secret);
    // Real resources so the {id} routes are judged on credentials, not on a missing id.
    const made = await send(app.url, 'POST', '/v3/pdf', JSON.stringify({ url: 'https://example.com/a.pdf' }), good);
    pdfId = made.body?.pdf_id ?? '2025_01_01_0123456789abcdef0123';
    const conv = await send(app.url, 'POST', '/v3/converter', JSON.stringify({ mmd: '# Title', formats: { docx: true } }), good);
    conversionId = conv.body?.conversion_id ?? '2025_01_01_0123456789abcdef0123';
  }, 90_000);
  afterAll(async () => {
    await app?.stop();
  });

  const routes = (): [string, string, string | undefined, boolean][] => [
    // method, path, body, key-only (app_key without app_id accepted)
    ['POST', '/v3/pdf', JSON.stringify({ url: 'https://example.com/a.pdf' }), false],
    ['GET', `/v3/pdf/${pdfId}`, undefined, false],
    ['GET', `/v3/pdf/${pdfId}/stream`, undefined, false],
    ['DELETE', `/v3/pdf/${pdfId}`, undefined, false],
    ['POST', '/v3/converter', JSON.stringify({ mmd: '# Title', formats: { docx: true } }), false],
    ['GET', `/v3/converter/${conversionId}`, undefined, false],
    ['DELETE', `/v3/converter/${conversionId}`, undefined, false],
    ['GET', '/v3/pdf-results', undefined, true],
    ['GET', '/v3/converter-results', undefined, true],
    ['POST', '/v3/app-tokens', undefined, true],
    ['GET', `/v3/app-tokens/${freshToken}`, undefined, true],
    ['DELETE', '/v3/app-tokens/token_0000', undefined, true],
  ];

  const expect401 = async (label: string, method: string, path: string, body: string | undefined, headers: Record<string, string>) => {
    const a = await send(app.url, method, path, body, headers);
    expect(a.status, `${label}: ${method} ${path} → ${a.text.slice(0, 200)}`).toBe(401);
    expect(envelopeProblem(a), `${label}: ${method} ${path}`).toBeUndefined();
    expect(a.body.error).toBe('unauthorized');
    return a.body.error_info.message as string;
  };

  it('a valid key passes every route (control)', async () => {
    for (const [method, path, body, keyOnly] of routes()) {
      if (method === 'DELETE') continue; // run last, below, so the ids stay usable
      const a = await send(app.url, method, path, body, keyOnly ? { app_key: good.app_key } : good);
      expect(a.status, `${method} ${path}: ${a.text.slice(0, 200)}`).not.toBe(401);
      if (a.body?.app_token) secrets.push(a.body.app_token);
    }
  });

  it('no credentials, wrong key, revoked key, app token, app_id mismatch → 401 unauthorized', async () => {
    const wrongKey = good.app_key.slice(0, -4) + (good.app_key.endsWith('aaaa') ? 'bbbb' : 'aaaa');
    const messages = new Set<string>();
    for (const [method, path, body, keyOnly] of routes()) {
      messages.add(await expect401('none', method, path, body, {}));
      messages.add(await expect401('app_id only', method, path, body, { app_id: good.app_id }));
      messages.add(await expect401('wrong key', method, path, body, keyOnly ? { app_key: wrongKey } : { app_id: good.app_id, app_key: wrongKey }));
      messages.add(await expect401('garbage key', method, path, body, { app_id: good.app_id, app_key: 'x'.repeat(5000) }));
      messages.add(await expect401('revoked key', method, path, body, keyOnly ? { app_key: revoked.app_key } : revoked));
      messages.add(await expect401('app token on a key-only route', method, path, body, { app_token: freshToken }));
      messages.add(await expect401('app token + app_id', method, path, body, { app_id: good.app_id, app_token: freshToken }));
      messages.add(await expect401('app_id mismatch', method, path, body, { app_id: other.app_id, app_key: good.app_key }));
    }
    console.log(`[auth] 401 messages seen: ${JSON.stringify([...messages])}`);
    expect(messages).toContain('Missing app_key');
    expect(messages).toContain('Invalid app_key');
  });

  it("a resource of another group is not reachable with that group's valid key", async () => {
    const a = await send(app.url, 'GET', `/v3/pdf/${pdfId}`, undefined, other);
    expect([403, 404]).toContain(a.status);
    expect(envelopeProblem(a)).toBeUndefined();
  });

  it('an expired app token answers 401 on every route', async () => {
    const wait = expiredToken.app_token_expires_at - Date.now() + 1_000;
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    for (const [method, path, body] of routes()) {
      await expect401('expired token', method, path, body, { app_token: expiredToken.app_token });
    }
  }, 60_000);

  it('the valid key can still delete (control for the DELETE routes)', async () => {
    for (const [method, path, body] of routes().filter(([m]) => m === 'DELETE')) {
      const a = await send(app.url, method, path, body, good);
      expect(a.status, `${method} ${path}: ${a.text.slice(0, 200)}`).not.toBe(401);
    }
  });

  it('no key, token or secret appears in the captured log output', async () => {
    const log = app.output();
    expect(log.length).toBeGreaterThan(1000); // the log really was captured at debug level
    expect(log).toMatch(/credentials refused/);
    const leaked = secrets.filter((s) => s && log.includes(s));
    expect(leaked).toEqual([]);
    // Nor any long-enough piece of one (a key printed with its prefix cut off, say).
    for (const s of secrets) {
      if (s.length < 24) continue;
      expect(log.includes(s.slice(-20)), 'tail of a secret in the log').toBe(false);
    }
    console.log(`[auth] ${secrets.length} secrets checked against ${log.split('\n').length} log lines`);
  });
});
