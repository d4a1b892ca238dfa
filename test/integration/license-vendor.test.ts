import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../appliance/context.js';
import { openDatabase } from '../../appliance/db.js';
import { createApp } from '../../appliance/http/app.js';
import { applyUsageEvent } from '../../appliance/metering/ledger.js';
import { readUsageReportState } from '../../appliance/metering/report-state.js';
import { UsageReporter } from '../../appliance/metering/reporter.js';
import { type Config, loadConfig } from '../../core/config.js';
import { createLogger } from '../../core/logging.js';
import { createRedis, waitReady } from '../../core/redis.js';
import { LicenseChecker, licenseCheckerConfig } from '../../license/checker.js';
import type { LicenseFile } from '../../license/file.js';
import { requireLicense } from '../../license/gate.js';
import { type VendorApp, createVendorApp } from '../../license/server/app.js';
import { type RunningVendorServer, startVendorServer } from '../../license/server/serve.js';
import { GRACE_MS } from '../../license/state.js';
import { loadLicenseAtStart } from '../../license/start.js';
import { spawnAppliance } from '../support/appliance.js';
import { waitFor } from '../support/ports.js';
import { type TestRedis, startRedis } from '../support/redis.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ADMIN = `admin-${randomUUID()}`;
const at = (ms: number) => new Date(ms).toISOString();
/** The appliance cases need loadLicenseAtStart wired into the appliance (see license/start.ts). */

// The licence checker and usage reporter, configured from a signed licence file the way the
// appliance configures them, against the real vendor service on a loopback port. The vendor is
// stopped and started on the same port; the appliance side's clock is moved, the vendor's skewed
// through its test clock control.
describe('licence and usage against the vendor service', () => {
  const keys = generateKeyPairSync('ed25519');
  let dir: string;
  let publicKeyFile: string;
  let redisServer: TestRedis;
  let redis: Redis;
  let vendor: VendorApp;
  let server: RunningVendorServer | undefined;
  let port: number;
  const cleanups: (() => Promise<void> | void)[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-vendor-'));
    publicKeyFile = join(dir, 'vendor.pem');
    await writeFile(publicKeyFile, keys.publicKey.export({ type: 'spki', format: 'pem' }));
    redisServer = await startRedis();
    redis = createRedis(redisServer.url);
    await waitReady(redis);
    vendor = createVendorApp({ privateKey: keys.privateKey, adminToken: ADMIN, testControls: true });
    server = await startVendorServer(vendor.app);
    port = server.port;
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
    if (!server) server = await startVendorServer(vendor.app, { port });
    await setVendorClock(0);
  });
  afterAll(async () => {
    await server?.close();
    redis?.disconnect();
    await redisServer?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const vendorUrl = () => `http://127.0.0.1:${port}/`;
  const vendorDown = async () => {
    await server!.close();
    server = undefined;
  };
  const vendorUp = async () => {
    server = await startVendorServer(vendor.app, { port });
  };
  async function admin(method: string, path: string, body?: unknown) {
    const res = await fetch(new URL(path, vendorUrl()), {
      method,
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any, headers: res.headers };
  }
  /** Moves the vendor's clock to real time + offset (the appliance side moves its own). */
  const setVendorClock = async (offsetMs: number) => expect((await admin('PUT', '/v1/test/clock', { offset_ms: offsetMs })).status).toBe(200);

  /** Issues a licence through the vendor API and writes it where FOLIO_LICENSE_FILE will point. */
  async function issue(over: Record<string, unknown> = {}) {
    const deploymentId = `dep-${randomUUID().slice(0, 8)}`;
    const res = await admin('POST', '/v1/licenses', {
      customer: 'Acme Corp',
      deployment_id: deploymentId,
      license_mode: 'online',
      metering_mode: 'metered',
      ...over,
    });
    expect(res.status).toBe(201);
    const file = join(dir, `${deploymentId}.json`);
    await writeFile(file, JSON.stringify(res.body as LicenseFile, null, 2));
    return { deploymentId, file, licenseId: res.headers.get('folio-license-id')!, payload: (res.body as LicenseFile).payload };
  }

  /** What the appliance does at start: the env, then the verified licence file over it. */
  function licensedConfig(licenceFile: string, now: number): Config {
    const env = {
      FOLIO_LICENSE_FILE: licenceFile,
      FOLIO_LICENSE_PUBLIC_KEY_FILE: publicKeyFile,
      FOLIO_LICENSE_URL: vendorUrl(),
      FOLIO_METERING_URL: vendorUrl(),
      FOLIO_QUEUE_PREFIX: `t${randomUUID().slice(0, 8)}`,
      FOLIO_CUSTOMER: 'env-customer',
      FOLIO_DEPLOYMENT_ID: 'env-deployment',
      FOLIO_BUILD_ID: 'b-int',
    };
    return loadLicenseAtStart(loadConfig(env), { now: () => now }).config;
  }

  /** A LicenseChecker built from the config as appliance/appliance.ts builds it (licenseCheckerConfig), on a movable clock. */
  function applianceSide(config: Config, clock: { now: number }) {
    const checker = new LicenseChecker({
      redis,
      ...licenseCheckerConfig(config),
      now: () => clock.now,
    });
    cleanups.push(() => checker.stop());
    // The submission gate, mounted the way the appliance mounts it on POST /pco/v1/jobs.
    const ctx = { config, redis, db: openDatabase(':memory:'), logger: createLogger({ name: 't', level: 'silent' }), now: () => clock.now } as AppContext;
    const app = createApp(ctx);
    app.post('/pco/v1/jobs', requireLicense(ctx), (c) => c.json({ accepted: true }, 201));
    const submit = async () => (await app.request('/pco/v1/jobs', { method: 'POST' })).status;
    return { checker, submit };
  }

  it('walks verified → unreachable (grace) → blocked 24 h later → verified when the vendor is back', async () => {
    const clock = { now: Date.now() };
    const { deploymentId, file, payload } = await issue({ valid_days: 30 });
    const config = licensedConfig(file, clock.now);
    expect(config).toMatchObject({
      FOLIO_DEPLOYMENT_ID: deploymentId,
      FOLIO_CUSTOMER: 'Acme Corp',
      FOLIO_LICENSE_MODE: 'online',
      FOLIO_METERING_MODE: 'metered',
    });
    const { checker, submit } = applianceSide(config, clock);

    const verifiedAt = clock.now;
    expect(await checker.checkOnce()).toMatchObject({
      status: 'verified',
      deployment_id: deploymentId,
      expires_at: payload.expires_at,
      last_error: null,
      consecutive_failures: 0,
    });
    expect((await admin('GET', `/v1/licenses?deployment_id=${deploymentId}`)).body.licenses[0]).toMatchObject({
      last_check_build_id: 'b-int',
      revoked_at: null,
    });

    await vendorDown();
    clock.now += HOUR;
    const down = await checker.checkOnce();
    expect(down).toMatchObject({ status: 'grace', consecutive_failures: 1, last_verified_at: at(verifiedAt), grace_ends_at: at(verifiedAt + GRACE_MS) });
    expect(down.last_error).toMatch(/^unreachable:(ECONNREFUSED|ECONNRESET|UND_ERR_SOCKET)$/);
    expect(await submit()).toBe(201);

    clock.now = verifiedAt + GRACE_MS;
    expect(await checker.checkOnce()).toMatchObject({ status: 'blocked', consecutive_failures: 2, last_error: expect.stringMatching(/^unreachable:/) });
    expect(await submit()).toBe(503);

    // A day has passed for the vendor too, or it would answer with a skewed clock.
    await vendorUp();
    await setVendorClock(clock.now - Date.now());
    const back = await checker.checkOnce();
    expect(back).toMatchObject({
      status: 'verified',
      consecutive_failures: 0,
      last_error: null,
      last_verified_at: at(clock.now),
      grace_ends_at: at(clock.now + GRACE_MS),
    });
    expect(await submit()).toBe(201);
  });

  it('refuses to verify across clock skew and records clock_skew:+Ns / -Ns', async () => {
    const clock = { now: Date.now() };
    const { file } = await issue();
    const { checker } = applianceSide(licensedConfig(file, clock.now), clock);
    const follow = () => (clock.now = Date.now());

    await setVendorClock(420_000);
    follow();
    expect(await checker.checkOnce()).toMatchObject({ status: 'grace', last_error: 'clock_skew:+420s', last_verified_at: null, consecutive_failures: 1 });
    await setVendorClock(-600_000);
    follow();
    expect((await checker.checkOnce()).last_error).toBe('clock_skew:-600s');
    await setVendorClock(120_000);
    follow();
    expect(await checker.checkOnce()).toMatchObject({ status: 'verified', last_error: null });
  });

  it('answers unauthorized for a revoked licence, an expired one and a key the vendor never issued', async () => {
    const clock = { now: Date.now() };
    const revoked = await issue();
    const a = applianceSide(licensedConfig(revoked.file, clock.now), clock);
    expect((await a.checker.checkOnce()).status).toBe('verified');
    expect((await admin('POST', '/v1/licenses/revoke', { deployment_id: revoked.deploymentId })).body).toEqual({ revoked: 1 });
    expect(await a.checker.checkOnce()).toMatchObject({ status: 'grace', last_error: 'unauthorized', consecutive_failures: 1 });

    const shortLived = await issue({ valid_days: 1 });
    const b = applianceSide(licensedConfig(shortLived.file, clock.now), clock);
    expect((await b.checker.checkOnce()).status).toBe('verified');
    clock.now += 2 * DAY;
    await setVendorClock(clock.now - Date.now());
    expect(await b.checker.checkOnce()).toMatchObject({ status: 'blocked', last_error: 'unauthorized' });

    const stranger = { ...licensedConfig(revoked.file, Date.now()), FOLIO_LICENSE_KEY: 'flk_never-issued' };
    const c = applianceSide(stranger, { now: clock.now });
    expect(await c.checker.checkOnce()).toMatchObject({ status: 'grace', last_error: 'unauthorized', last_verified_at: null });
  });

  it('keeps usage pending while the vendor is away, resends until acknowledged, then sends only what changed', async () => {
    const { deploymentId, file } = await issue();
    const config = licensedConfig(file, Date.now());
    const db = openDatabase(join(dir, `${deploymentId}.sqlite`));
    cleanups.push(() => void db.close());
    const add = (eventId: string, day: string, pages: number) =>
      applyUsageEvent(db, { type: 'usage', eventId, day, deltas: { pages_billable: pages, pages_completed: pages, documents_completed: 1 } });
    add('doc-1', '2025-06-01', 5);
    add('doc-2', '2025-06-02', 3);
    const reporter = new UsageReporter({
      db,
      mode: config.FOLIO_METERING_MODE,
      url: config.FOLIO_METERING_URL,
      deploymentId: config.FOLIO_DEPLOYMENT_ID,
      customer: config.FOLIO_CUSTOMER,
      buildId: config.FOLIO_BUILD_ID,
      licenseKey: config.FOLIO_LICENSE_KEY,
      intervalMs: 200,
    });
    cleanups.push(() => reporter.stop());
    const vendorUsage = async () => (await admin('GET', `/v1/usage?deployment_id=${deploymentId}`)).body;
    const pagesByDay = async () => (await vendorUsage()).days.map((d: { day: string; pages_billable: number }) => [d.day, d.pages_billable]);

    await vendorDown();
    reporter.start();
    // Several failed attempts, each leaving the rows pending.
    const firstFailure = await waitFor(() => readUsageReportState({ db }).last_attempt_at, 5_000);
    await waitFor(() => readUsageReportState({ db }).last_attempt_at !== firstFailure, 5_000);
    expect(readUsageReportState({ db })).toMatchObject({ days_pending: 2, last_report_at: null, last_report_error: expect.stringMatching(/^unreachable:/) });

    await vendorUp();
    await waitFor(() => readUsageReportState({ db }).days_pending === 0, 10_000);
    await reporter.stop();
    expect(readUsageReportState({ db })).toMatchObject({ last_report_error: null, last_report_at: expect.any(String) });
    expect(await pagesByDay()).toEqual([
      ['2025-06-01', 5],
      ['2025-06-02', 3],
    ]);

    // Later usage on a reported day: the day is resent with its new cumulative total, not added twice.
    add('doc-3', '2025-06-02', 4);
    expect(readUsageReportState({ db }).days_pending).toBe(1);
    expect(await reporter.reportOnce()).toEqual({ sent: true, days: 1, error: null });
    expect(await pagesByDay()).toEqual([
      ['2025-06-01', 5],
      ['2025-06-02', 7],
    ]);
    expect((await vendorUsage()).reports).toBeGreaterThanOrEqual(2);
  });

  describe('the appliance started with a licence file', () => {
    it('takes customer, deployment and modes from the file, verifies online and reports usage', async () => {
      const { deploymentId, file } = await issue();
      const app = await spawnAppliance(
        {
          FOLIO_LICENSE_FILE: file,
          FOLIO_LICENSE_PUBLIC_KEY_FILE: publicKeyFile,
          FOLIO_LICENSE_URL: vendorUrl(),
          FOLIO_METERING_URL: vendorUrl(),
          FOLIO_LICENSE_MODE: 'air_gapped',
          FOLIO_METERING_MODE: 'offline',
          FOLIO_CUSTOMER: 'env-customer',
          FOLIO_SPAWN_WORKERS: 'false',
        },
        { waitHealthy: false },
      );
      cleanups.push(async () => void (await app.stop()));
      const get = async (path: string) => (await fetch(`${app.url}${path}`)).json() as Promise<any>;
      const license = await waitFor(
        async () => {
          const l = await get('/pco/v1/license');
          return l.status === 'verified' && l;
        },
        15_000,
        200,
      );
      expect(license).toMatchObject({ license_mode: 'online', deployment_id: deploymentId, last_error: null });
      expect(await get('/pco/v1/status')).toMatchObject({
        customer: 'Acme Corp',
        deployment_id: deploymentId,
        license_mode: 'online',
        metering_mode: 'metered',
      });
      await waitFor(async () => (await admin('GET', `/v1/usage?deployment_id=${deploymentId}`)).body.reports >= 1, 15_000, 200);
    });

    it('refuses to start with a tampered licence file and says why', async () => {
      const { file } = await issue();
      const doc = JSON.parse(readFileSync(file, 'utf8'));
      doc.payload.customer = 'Free Rider';
      await writeFile(file, JSON.stringify(doc));
      await expect(
        spawnAppliance(
          {
            FOLIO_LICENSE_FILE: file,
            FOLIO_LICENSE_PUBLIC_KEY_FILE: publicKeyFile,
            FOLIO_LICENSE_URL: vendorUrl(),
            FOLIO_METERING_URL: vendorUrl(),
            FOLIO_SPAWN_WORKERS: 'false',
          },
          { waitHealthy: false },
        ),
      ).rejects.toThrow(/licence file .*: the signature does not match the payload/);
    });
  });
});
