import type { Redis } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import { LicenseChecker, type LicenseCheckerOptions } from './checker.js';
import { GRACE_MS, deriveStatus, licenseKey, readLicense } from './state.js';

const T0 = Date.parse('2025-06-01T00:00:00Z');
const HOUR = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString();

/** The two commands the licence code uses, over a Map. */
function fakeRedis(): Redis & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, get: async (k: string) => data.get(k) ?? null, set: async (k: string, v: string) => (data.set(k, v), 'OK') } as never;
}

type Answer = { status: number; body?: unknown } | Error;

/** A licence server that answers from a script, or with the clock's time when the body says so. */
function setup(over: Partial<LicenseCheckerOptions> = {}) {
  let now = T0;
  const answers: Answer[] = [];
  const fetch = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => {
    const a = answers.shift() ?? { status: 200, body: { valid: true, expires_at: '2026-01-01T00:00:00Z', server_time: at(now) } };
    if (a instanceof Error) throw a;
    return new Response(JSON.stringify(a.body ?? {}), { status: a.status, headers: { 'content-type': 'application/json' } });
  });
  const redis = fakeRedis();
  const checker = new LicenseChecker({
    redis,
    prefix: 't',
    mode: 'online',
    deploymentId: 'dep-1',
    url: 'https://licence.example/folio',
    licenseKey: 'lk-secret',
    intervalMs: HOUR,
    buildId: 'b42',
    fetch: fetch as typeof globalThis.fetch,
    now: () => now,
    ...over,
  });
  const refused = () => Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
  return { checker, fetch, redis, answers, refused, advance: (ms: number) => (now += ms), now: () => now };
}

describe('LicenseChecker', () => {
  it('walks verified → grace → blocked after 24 h → verified again with one success', async () => {
    const { checker, answers, refused, advance, redis, now } = setup();
    expect((await checker.checkOnce()).status).toBe('verified');

    advance(HOUR);
    answers.push(refused());
    const failed = await checker.checkOnce();
    expect(failed).toMatchObject({
      status: 'grace',
      consecutive_failures: 1,
      last_error: 'unreachable:ECONNREFUSED',
      last_verified_at: at(T0),
      grace_ends_at: at(T0 + GRACE_MS),
    });

    advance(GRACE_MS - HOUR - 1);
    answers.push(refused());
    expect((await checker.checkOnce()).status).toBe('grace');
    advance(1);
    // Every process derives the same status from the shared record and the clock, check or not.
    expect(deriveStatus((await readLicense(redis, 't'))!, now())).toBe('blocked');
    answers.push(refused());
    expect(await checker.checkOnce()).toMatchObject({ status: 'blocked', consecutive_failures: 3 });

    advance(HOUR);
    const back = await checker.checkOnce();
    expect(back).toMatchObject({ status: 'verified', consecutive_failures: 0, last_error: null, last_verified_at: at(now()), last_checked_at: at(now()) });
    expect(back.grace_ends_at).toBe(at(now() + GRACE_MS));
    expect(back.expires_at).toBe('2026-01-01T00:00:00Z');
  });

  it('gives a never-verified deployment 24 h of grace from its first start, then blocks', async () => {
    const { checker, fetch, answers, refused, advance } = setup();
    answers.push(refused(), refused(), refused());
    await checker.start();
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    await checker.stop();
    advance(GRACE_MS - 1);
    expect(await checker.checkOnce()).toMatchObject({ status: 'grace', last_verified_at: null, grace_ends_at: at(T0 + GRACE_MS) });
    advance(1);
    expect((await checker.checkOnce()).status).toBe('blocked');
  });

  it('records clock skew over 5 minutes as clock_skew:+Ns and does not verify', async () => {
    const { checker, answers, now } = setup();
    answers.push({ status: 200, body: { valid: true, expires_at: null, server_time: at(now() + 420_000) } });
    expect(await checker.checkOnce()).toMatchObject({ status: 'grace', last_error: 'clock_skew:+420s', last_verified_at: null });
    answers.push({ status: 200, body: { valid: true, expires_at: null, server_time: at(now() - 301_000) } });
    expect((await checker.checkOnce()).last_error).toBe('clock_skew:-301s');
    answers.push({ status: 200, body: { valid: true, expires_at: null, server_time: at(now() + 299_000) } });
    expect((await checker.checkOnce()).status).toBe('verified');
  });

  it('records 401, 403 and valid:false as unauthorized, other answers as unreachable', async () => {
    const { checker, answers } = setup();
    for (const a of [{ status: 401 }, { status: 403 }, { status: 200, body: { valid: false, server_time: at(T0) } }]) {
      answers.push(a);
      expect((await checker.checkOnce()).last_error).toBe('unauthorized');
    }
    answers.push({ status: 502 });
    expect((await checker.checkOnce()).last_error).toBe('unreachable:http_502');
    answers.push({ status: 200, body: { valid: true } });
    expect(await checker.checkOnce()).toMatchObject({ last_error: 'unreachable:invalid_response', consecutive_failures: 5 });
  });

  it('posts the deployment, build and key to <url>/v1/check', async () => {
    const { checker, fetch } = setup();
    await checker.checkOnce();
    const [url, init] = fetch.mock.calls[0]!;
    expect(String(url)).toBe('https://licence.example/folio/v1/check');
    expect(init?.method).toBe('POST');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer lk-secret');
    expect(JSON.parse(String(init?.body))).toMatchObject({ deployment_id: 'dep-1', build_id: 'b42', license_mode: 'online', client_time: at(T0) });
  });

  it('checks at start and then every interval', async () => {
    const { checker, fetch } = setup({ intervalMs: 20 });
    await checker.start();
    await vi.waitFor(() => expect(fetch.mock.calls.length).toBeGreaterThanOrEqual(3));
    await checker.stop();
    const n = fetch.mock.calls.length;
    await new Promise((r) => setTimeout(r, 60));
    expect(fetch.mock.calls.length).toBe(n);
  });

  it('never calls out in air-gapped mode and reports not_enforced', async () => {
    const { checker, fetch, redis, advance } = setup({ mode: 'air_gapped', intervalMs: 1 });
    await checker.start();
    advance(10 * GRACE_MS);
    expect(await checker.checkOnce()).toMatchObject({ status: 'not_enforced', license_mode: 'air_gapped', last_checked_at: null });
    await new Promise((r) => setTimeout(r, 30));
    await checker.stop();
    expect(fetch).not.toHaveBeenCalled();
    expect(JSON.parse(redis.data.get(licenseKey('t'))!).license_mode).toBe('air_gapped');
  });

  it('counts a missing licence URL as unreachable without calling out', async () => {
    const { checker, fetch } = setup({ url: undefined });
    expect((await checker.checkOnce()).last_error).toMatch(/^unreachable:/);
    expect(fetch).not.toHaveBeenCalled();
  });
});
