import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../core/config.js';
import { createLogger } from '../../../core/logging.js';
import { GRACE_MS, initialLicense, licenseKey } from '../../../license/state.js';
import type { AppContext } from '../../context.js';
import { openDatabase } from '../../db.js';
import { applyUsageEvent, USAGE_FIELDS } from '../../metering/ledger.js';
import { createApp } from '../app.js';
import { usageLicenseRoutes } from './usage-license.js';

const NOW = Date.parse('2025-03-15T10:00:00Z');

function setup(env: Record<string, string> = {}, redis?: Partial<Redis>) {
  const data = new Map<string, string>();
  const ctx = {
    config: loadConfig({
      FOLIO_DEPLOYMENT_ID: 'dep/1',
      FOLIO_CUSTOMER: 'Acme',
      FOLIO_BUILD_ID: 'b42',
      FOLIO_LICENSE_MODE: 'online',
      FOLIO_METERING_MODE: 'metered',
      ...env,
    }),
    logger: createLogger({ name: 't', level: 'silent' }),
    redis: (redis ?? { get: async (k: string) => data.get(k) ?? null }) as Redis,
    db: openDatabase(':memory:'),
    now: () => NOW,
  } as AppContext;
  const app = createApp(ctx);
  app.route('/', usageLicenseRoutes(ctx));
  const get = async (path: string) => {
    const res = await app.request(path);
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };
  const add = (id: string, day: string, deltas: Record<string, number>) => applyUsageEvent(ctx.db, { type: 'usage', eventId: id, day, deltas });
  return { ctx, get, add, data };
}

describe('GET /pco/v1/usage', () => {
  it('covers the last 30 days, today included, by default', async () => {
    const { get } = setup();
    const { status, body } = await get('/pco/v1/usage');
    expect(status).toBe(200);
    expect(body).toMatchObject({ from: '2025-02-14', to: '2025-03-15' });
    expect(body.days).toHaveLength(30);
  });

  it('answers day rows and totals equal to their sum', async () => {
    const { get, add } = setup();
    add('a', '2025-03-01', { pages_billable: 4, pages_completed: 4, documents_completed: 1, documents_billable: 1 });
    add('b', '2025-03-02', { pages_completed: 2, pages_failed: 1, documents_failed: 1, images_billable: 3, images_completed: 3 });
    const { body } = await get('/pco/v1/usage?from=2025-03-01&to=2025-03-03');
    expect(body.days).toHaveLength(3);
    expect(Object.keys(body.days[0])).toEqual(['day', ...USAGE_FIELDS]);
    for (const f of USAGE_FIELDS) expect(body.totals[f], f).toBe(body.days.reduce((s: number, d: any) => s + d[f], 0));
    expect(body.totals.pages_billable + body.totals.images_billable).toBe(7);
  });

  it('reads ?from alone as "since from" up to today', async () => {
    const { body } = await setup().get('/pco/v1/usage?from=2025-03-10');
    expect(body).toMatchObject({ from: '2025-03-10', to: '2025-03-15' });
  });

  it('accepts 366 days and refuses 367 with 400 bad_request', async () => {
    const { get } = setup();
    expect((await get('/pco/v1/usage?from=2024-01-01&to=2024-12-31')).body.days).toHaveLength(366);
    const { status, body } = await get('/pco/v1/usage?from=2024-01-01&to=2025-01-01');
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'bad_request', error_info: { id: 'bad_request', message: expect.stringContaining('366') } });
  });

  it.each([
    ['from=2025-3-01', 'from'],
    ['to=2025-02-30', 'to'],
    ['from=yesterday', 'from'],
    ['from=2025-03-10&to=2025-03-09', 'after'],
    ['from=2025-03-01T00:00:00Z', 'from'],
  ])('answers 400 bad_request for ?%s', async (q, word) => {
    const { status, body } = await setup().get(`/pco/v1/usage?${q}`);
    expect(status).toBe(400);
    expect(body.error).toBe('bad_request');
    expect(body.error_info.message).toContain(word);
  });
});

describe('GET /pco/v1/usage/export', () => {
  it('adds the statement fields to the usage body and offers a file name', async () => {
    const { get, add } = setup();
    add('a', '2025-03-14', { pages_billable: 9 });
    const { status, body, headers } = await get('/pco/v1/usage/export?from=2025-03-14&to=2025-03-15');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      statement_version: 1,
      exported_at: '2025-03-15T10:00:00.000Z',
      deployment_id: 'dep/1',
      customer: 'Acme',
      build_id: 'b42',
      license_mode: 'online',
      metering_mode: 'metered',
      from: '2025-03-14',
      to: '2025-03-15',
      totals: { pages_billable: 9 },
    });
    expect(body.days).toHaveLength(2);
    expect(headers.get('content-disposition')).toBe('attachment; filename="folio-usage-dep_1-2025-03-14-2025-03-15.json"');
  });

  it('validates the range like /pco/v1/usage', async () => {
    expect((await setup().get('/pco/v1/usage/export?from=2025-03-16&to=2025-03-15')).status).toBe(400);
  });
});

describe('GET /pco/v1/license', () => {
  it('answers every field of the stored record with the status derived now', async () => {
    const { get, data } = setup();
    const rec = {
      ...initialLicense('online', 'dep/1', NOW - GRACE_MS),
      last_verified_at: new Date(NOW - 3_600_000).toISOString(),
      consecutive_failures: 2,
      last_error: 'clock_skew:+420s',
    };
    data.set(licenseKey('folio'), JSON.stringify(rec));
    const { status, body } = await get('/pco/v1/license');
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(
      [
        'consecutive_failures',
        'deployment_id',
        'expires_at',
        'grace_ends_at',
        'last_checked_at',
        'last_error',
        'last_verified_at',
        'license_mode',
        'status',
      ].sort(),
    );
    expect(body).toMatchObject({ status: 'grace', license_mode: 'online', deployment_id: 'dep/1', consecutive_failures: 2, last_error: 'clock_skew:+420s' });
  });

  it('is not_enforced in an air-gapped build', async () => {
    const { body } = await setup({ FOLIO_LICENSE_MODE: 'air_gapped' }).get('/pco/v1/license');
    expect(body).toMatchObject({ status: 'not_enforced', license_mode: 'air_gapped', grace_ends_at: null });
  });

  it('reads unknown when the state store does not answer', async () => {
    const { status, body } = await setup({}, { get: () => new Promise(() => {}) }).get('/pco/v1/license');
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'unknown', license_mode: 'online', deployment_id: 'dep/1' });
  });
});
