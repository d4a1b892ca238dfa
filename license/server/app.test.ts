import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type LicenseFile, licenseKeyOf, verifyLicenseFile } from '../file.js';
import { createVendorApp } from './app.js';

const T0 = Date.parse('2025-06-01T00:00:00Z');
const ADMIN = 'admin-token-0123456789';
const keys = generateKeyPairSync('ed25519');

function setup() {
  let now = T0;
  const vendor = createVendorApp({ privateKey: keys.privateKey, adminToken: ADMIN, now: () => now, testControls: true });
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await vendor.app.request(path, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any, headers: res.headers };
  };
  const issue = async (over: Record<string, unknown> = {}) => {
    const res = await call('POST', '/v1/licenses', ADMIN, {
      customer: 'Acme',
      deployment_id: 'dep-1',
      license_mode: 'online',
      metering_mode: 'metered',
      ...over,
    });
    expect(res.status).toBe(201);
    return { file: res.body as LicenseFile, id: res.headers.get('folio-license-id')!, key: licenseKeyOf(res.body) };
  };
  const check = (key: string | undefined, deploymentId = 'dep-1') =>
    call('POST', '/v1/check', key, {
      deployment_id: deploymentId,
      build_id: 'b1',
      customer: 'Acme',
      license_mode: 'online',
      client_time: new Date(now).toISOString(),
    });
  return { vendor, call, issue, check, advance: (ms: number) => (now += ms) };
}

const day = (d: string, pages: number) => ({
  day: d,
  pages_billable: pages,
  images_billable: 0,
  documents_billable: 1,
  pages_completed: pages,
  pages_failed: 0,
  documents_completed: 1,
  documents_failed: 0,
  images_completed: 0,
  images_failed: 0,
});
const report = (days: unknown[], deploymentId = 'dep-1') => ({
  statement_version: 1,
  deployment_id: deploymentId,
  customer: 'Acme',
  build_id: 'b1',
  sent_at: new Date(T0).toISOString(),
  days,
});

describe('vendor service', () => {
  it('issues a licence file the appliance verifies, valid for a year by default', async () => {
    const { issue } = setup();
    const { file, id } = await issue();
    expect(id).toMatch(/^lic_/);
    const payload = verifyLicenseFile(JSON.stringify(file), keys.publicKey, T0);
    expect(payload).toEqual({
      customer: 'Acme',
      deployment_id: 'dep-1',
      license_mode: 'online',
      metering_mode: 'metered',
      issued_at: '2025-06-01T00:00:00.000Z',
      expires_at: '2026-06-01T00:00:00.000Z',
    });
  });

  it('refuses admin calls without the admin token and bad issue requests', async () => {
    const { call } = setup();
    expect((await call('POST', '/v1/licenses', undefined, {})).status).toBe(401);
    expect((await call('POST', '/v1/licenses', 'wrong', {})).status).toBe(401);
    expect((await call('GET', '/v1/licenses', 'wrong')).status).toBe(401);
    expect((await call('POST', '/v1/licenses/revoke', 'wrong', { deployment_id: 'dep-1' })).status).toBe(401);
    expect((await call('GET', '/v1/usage?deployment_id=dep-1', 'wrong')).status).toBe(401);
    const bad = await call('POST', '/v1/licenses', ADMIN, { customer: 'Acme', deployment_id: 'dep-1', license_mode: 'sometimes', metering_mode: 'metered' });
    expect(bad).toMatchObject({ status: 400, body: { error: 'bad_request', message: expect.stringContaining('license_mode') } });
    const past = await call('POST', '/v1/licenses', ADMIN, {
      customer: 'Acme',
      deployment_id: 'dep-1',
      license_mode: 'online',
      metering_mode: 'metered',
      expires_at: '2025-01-01T00:00:00Z',
    });
    expect(past.status).toBe(400);
  });

  it('answers a check with valid, expires_at and its clock, moved by the test offset', async () => {
    const { issue, check, call, vendor } = setup();
    const { key, file } = await issue();
    expect(await check(key)).toMatchObject({
      status: 200,
      body: { valid: true, expires_at: file.payload.expires_at, server_time: '2025-06-01T00:00:00.000Z' },
    });
    expect((await call('PUT', '/v1/test/clock', ADMIN, { offset_ms: 420_000 })).body.server_time).toBe('2025-06-01T00:07:00.000Z');
    expect((await check(key)).body.server_time).toBe('2025-06-01T00:07:00.000Z');
    expect(vendor.store.list('dep-1')[0]).toMatchObject({ last_check_at: '2025-06-01T00:07:00.000Z', last_check_build_id: 'b1' });
  });

  it('answers 401 to an unknown key, another deployment, a revoked and an expired licence', async () => {
    const { issue, check, call, advance } = setup();
    const { key } = await issue({ valid_days: 2 });
    expect(await check(undefined)).toMatchObject({ status: 401, body: { error: 'unknown_license' } });
    expect(await check('flk_nope')).toMatchObject({ status: 401, body: { error: 'unknown_license' } });
    expect(await check(key, 'dep-2')).toMatchObject({ status: 401, body: { error: 'deployment_mismatch' } });
    advance(2 * 86_400_000);
    expect(await check(key)).toMatchObject({ status: 401, body: { error: 'expired' } });
    const { key: renewed, id } = await issue();
    expect((await check(renewed)).status).toBe(200);
    expect((await call('POST', '/v1/licenses/revoke', ADMIN, { license_id: id })).body).toEqual({ revoked: 1 });
    expect(await check(renewed)).toMatchObject({ status: 401, body: { error: 'revoked' } });
    expect((await call('POST', '/v1/licenses/revoke', ADMIN, { deployment_id: 'dep-1' })).body).toEqual({ revoked: 1 });
  });

  it('stores usage rows by day, never lowering a counter when an older report arrives late', async () => {
    const { issue, call } = setup();
    const { key } = await issue();
    expect((await call('POST', '/v1/usage', key, report([day('2025-05-31', 5), day('2025-06-01', 2)]))).body).toMatchObject({ received_days: 2 });
    expect((await call('POST', '/v1/usage', key, report([day('2025-06-01', 7)]))).status).toBe(200);
    expect((await call('POST', '/v1/usage', key, report([day('2025-06-01', 3)]))).status).toBe(200);
    expect((await call('POST', '/v1/usage', key, report([]))).status).toBe(200);
    const usage = await call('GET', '/v1/usage?deployment_id=dep-1', ADMIN);
    expect(usage.body.days.map((d: { day: string; pages_billable: number }) => [d.day, d.pages_billable])).toEqual([
      ['2025-05-31', 5],
      ['2025-06-01', 7],
    ]);
    expect(usage.body).toMatchObject({ reports: 4, last_report_at: '2025-06-01T00:00:00.000Z' });
  });

  it('refuses usage from an unknown key, for another deployment or with a malformed row', async () => {
    const { issue, call } = setup();
    const { key } = await issue();
    expect((await call('POST', '/v1/usage', 'flk_nope', report([]))).status).toBe(401);
    expect((await call('POST', '/v1/usage', key, report([], 'dep-2'))).status).toBe(403);
    expect((await call('POST', '/v1/usage', key, report([{ ...day('2025-02-30', 1) }]))).status).toBe(400);
    expect((await call('POST', '/v1/usage', key, report([{ ...day('2025-06-01', 1), pages_billable: -1 }]))).status).toBe(400);
  });

  it('mounts the clock control only when asked', async () => {
    const plain = createVendorApp({ privateKey: keys.privateKey, adminToken: ADMIN });
    const res = await plain.app.request('/v1/test/clock', { method: 'PUT', headers: { authorization: `Bearer ${ADMIN}` }, body: '{"offset_ms":1}' });
    expect(res.status).toBe(404);
  });
});
