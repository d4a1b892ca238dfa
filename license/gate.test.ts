import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createApp } from '../appliance/http/app.js';
import type { AppContext } from '../appliance/context.js';
import { openDatabase } from '../appliance/db.js';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/logging.js';
import { requireLicense } from './gate.js';
import { GRACE_MS, type StoredLicense, initialLicense, licenseKey } from './state.js';

const T0 = Date.parse('2025-06-01T00:00:00Z');

/** The real app and envelope, with the gate mounted the way the lead mounts it. */
function setup(mode: 'online' | 'air_gapped', redis?: Partial<Redis>) {
  const data = new Map<string, string>();
  let now = T0;
  const ctx = {
    config: loadConfig({ FOLIO_LICENSE_MODE: mode, FOLIO_DEPLOYMENT_ID: 'dep-1' }),
    logger: createLogger({ name: 't', level: 'silent' }),
    redis: (redis ?? { get: async (k: string) => data.get(k) ?? null }) as Redis,
    db: openDatabase(':memory:'),
    now: () => now,
  } as AppContext;
  const app = createApp(ctx);
  for (const path of ['/v3/pdf', '/v3/text', '/pco/v1/jobs']) app.post(path, requireLicense(ctx), (c) => c.json({ accepted: true }, 201));
  app.get('/v3/pdf/:id', (c) => c.json({ status: 'completed' }));
  const store = (rec: StoredLicense) => data.set(licenseKey('folio'), JSON.stringify(rec));
  return { app, store, setNow: (ms: number) => (now = ms) };
}

const verifiedAt = (ms: number, failures: number): StoredLicense => ({
  ...initialLicense('online', 'dep-1', ms),
  last_verified_at: new Date(ms).toISOString(),
  consecutive_failures: failures,
});

describe('requireLicense', () => {
  it('answers 503 license_unverified on the three submission routes once blocked', async () => {
    const { app, store, setNow } = setup('online');
    store(verifiedAt(T0, 1));
    setNow(T0 + GRACE_MS);
    for (const path of ['/v3/pdf', '/v3/text', '/pco/v1/jobs']) {
      const res = await app.request(path, { method: 'POST' });
      expect(res.status, path).toBe(503);
      const body = (await res.json()) as any;
      expect(body.error).toBe('license_unverified');
      expect(body.error_info).toMatchObject({ id: 'license_unverified', message: expect.stringContaining('licence') });
    }
    // Downloads and status are never gated.
    expect((await app.request('/v3/pdf/abc')).status).toBe(200);
  });

  it('lets submissions through in grace and when verified', async () => {
    const { app, store, setNow } = setup('online');
    store(verifiedAt(T0, 3));
    setNow(T0 + GRACE_MS - 1);
    expect((await app.request('/v3/text', { method: 'POST' })).status).toBe(201);
    store(verifiedAt(T0, 0));
    expect((await app.request('/v3/text', { method: 'POST' })).status).toBe(201);
  });

  it('blocks a deployment that never verified once its first-start grace has run out', async () => {
    const { app, store, setNow } = setup('online');
    store(initialLicense('online', 'dep-1', T0));
    expect((await app.request('/pco/v1/jobs', { method: 'POST' })).status).toBe(201);
    setNow(T0 + GRACE_MS);
    expect((await app.request('/pco/v1/jobs', { method: 'POST' })).status).toBe(503);
  });

  it('never blocks an air-gapped build, whatever an old online record says', async () => {
    const { app, store, setNow } = setup('air_gapped');
    store(verifiedAt(T0, 5));
    setNow(T0 + 10 * GRACE_MS);
    expect((await app.request('/v3/pdf', { method: 'POST' })).status).toBe(201);
  });

  it('lets the request through when the licence record cannot be read', async () => {
    const { app } = setup('online', { get: async () => Promise.reject(new Error('Connection is closed.')) });
    expect((await app.request('/v3/pdf', { method: 'POST' })).status).toBe(201);
  });
});
