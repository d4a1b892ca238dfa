import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { type Server, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signLicense } from '../../license/file.js';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { pcoClient } from '../support/pco-client.js';
import { pagedPdf } from '../support/pdf-fixtures.js';

const DENY_EGRESS = resolve('test/support/deny-egress.cjs');
/** How long the appliance runs, start to stop, before the egress log is read. */
const RUN_AT_LEAST_MS = 5_000;
/** The licence-file case needs loadLicenseAtStart wired into the appliance (see license/start.ts). */

interface CountingListener {
  url: string;
  connections: () => number;
  close: () => Promise<void>;
}

/** A loopback TCP listener that counts connections and closes each at once: the stand-in vendor. */
async function countingListener(): Promise<CountingListener> {
  let n = 0;
  const server: Server = createServer((socket) => {
    n++;
    socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, connections: () => n, close: () => new Promise((r) => server.close(() => r())) };
}

interface Attempt {
  pid: number;
  kind: string;
  dest: string;
}
const lines = async (file: string) => (existsSync(file) ? (await readFile(file, 'utf8')).split('\n').filter(Boolean) : []);
const attempts = async (log: string) => (await lines(log)).map((l) => JSON.parse(l) as Attempt);

// An air-gapped appliance must never leave the machine: every Node process it starts is preloaded
// with deny-egress.cjs, which records and refuses anything but loopback and unix sockets, and the
// licence and metering URLs point at a loopback listener that counts connections.
describe('air-gapped appliance', () => {
  let root: string;
  let listener: CountingListener;
  const apps: ApplianceProcess[] = [];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-airgap-'));
    listener = await countingListener();
  });
  afterAll(async () => {
    for (const a of apps) await a.stop();
    await listener?.close();
    await rm(root, { recursive: true, force: true });
  });

  const guardEnv = (log: string) => ({
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${DENY_EGRESS}`.trim(),
    FOLIO_DENY_EGRESS_LOG: log,
  });

  /** Starts the guarded appliance, runs /health and one job, keeps it up RUN_AT_LEAST_MS, stops it. */
  async function runGuarded(log: string, env: Record<string, string>) {
    const started = Date.now();
    const input = await mkdtemp(join(root, 'in-'));
    await writeFile(join(input, 'report.pdf'), await pagedPdf(2));
    const app = await spawnAppliance({
      ...guardEnv(log),
      FOLIO_LICENSE_URL: listener.url,
      FOLIO_METERING_URL: listener.url,
      FOLIO_LICENSE_KEY: 'lk-must-never-leave',
      FOLIO_LICENSE_CHECK_SECONDS: '60',
      FOLIO_DOCUMENT_WORKERS: '1',
      FOLIO_INFERENCE_WORKERS: '1',
      ...env,
    });
    apps.push(app);
    const pco = pcoClient(app.url);
    const health = await pco.call('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body.license.status).toBe('not_enforced');

    const created = await pco.create({ name: 'air-gapped', input: { folder: `file://${input}/` }, client_reference: log });
    expect(created.status).toBe(201);
    const done = await pco.settled(created.body.job_id);
    expect(done).toMatchObject({ status: 'completed', files: { completed: 1, failed: 0 }, pages: { completed: 2, failed: 0 } });

    await new Promise((r) => setTimeout(r, Math.max(0, RUN_AT_LEAST_MS - (Date.now() - started))));
    const license = await pco.call('GET', '/pco/v1/license');
    const status = await pco.call('GET', '/pco/v1/status');
    expect(await app.stop()).toBe(0);
    return { license: license.body, status: status.body };
  }

  it('control: the guard records and refuses a connection off the machine, and the listener counts one in', async () => {
    const log = join(root, 'control.log');
    const script = `
      const net = require('node:net');
      const tried = (s) => new Promise((r) => s.on('error', r).on('close', r));
      (async () => {
        await tried(net.connect(80, '192.0.2.1'));
        await fetch('https://licence.vendor.example/v1/check').catch(() => undefined);
        await tried(net.connect(${new URL(listener.url).port}, '127.0.0.1'));
      })();`;
    await promisify(execFile)(process.execPath, ['-e', script], { env: { ...process.env, ...guardEnv(log) } });
    expect((await attempts(log)).map((a) => a.dest)).toEqual(['192.0.2.1:80', 'licence.vendor.example:443']);
    expect(listener.connections()).toBe(1);
  });

  it('makes no connection off the machine and none to the licence or metering URL while it serves /health and a job', async () => {
    const log = join(root, 'env.log');
    const before = listener.connections();
    const { license, status } = await runGuarded(log, { FOLIO_LICENSE_MODE: 'air_gapped', FOLIO_METERING_MODE: 'offline' });

    expect(license).toMatchObject({
      status: 'not_enforced',
      license_mode: 'air_gapped',
      last_checked_at: null,
      last_verified_at: null,
      consecutive_failures: 0,
      last_error: null,
    });
    expect(status).toMatchObject({ license_mode: 'air_gapped', metering_mode: 'offline', metering: { last_attempt_at: null } });
    expect(await attempts(log)).toEqual([]);
    expect(listener.connections() - before).toBe(0);
    // The guard was in the appliance and in both worker processes, so "nothing logged" means something.
    const guarded = await lines(`${log}.loaded`);
    expect(guarded.some((l) => l.includes('appliance/main.ts'))).toBe(true);
    expect(guarded.length).toBeGreaterThanOrEqual(3);
  });

  it('stays off the network when an air-gapped licence file overrides online, metered settings', async () => {
    const keys = generateKeyPairSync('ed25519');
    const keyFile = join(root, 'vendor.pem');
    await writeFile(keyFile, keys.publicKey.export({ type: 'spki', format: 'pem' }));
    const licenceFile = join(root, 'licence.json');
    const now = Date.now();
    const file = signLicense(
      {
        customer: 'Bunker Ltd',
        deployment_id: 'bunker-1',
        license_mode: 'air_gapped',
        metering_mode: 'offline',
        issued_at: new Date(now).toISOString(),
        expires_at: new Date(now + 30 * 86_400_000).toISOString(),
      },
      keys.privateKey,
    );
    await writeFile(licenceFile, JSON.stringify(file));

    const log = join(root, 'file.log');
    const before = listener.connections();
    const { license, status } = await runGuarded(log, {
      FOLIO_LICENSE_MODE: 'online',
      FOLIO_METERING_MODE: 'metered',
      FOLIO_LICENSE_FILE: licenceFile,
      FOLIO_LICENSE_PUBLIC_KEY_FILE: keyFile,
    });
    expect(license).toMatchObject({ status: 'not_enforced', license_mode: 'air_gapped', deployment_id: 'bunker-1', last_checked_at: null });
    expect(status).toMatchObject({ customer: 'Bunker Ltd', deployment_id: 'bunker-1', license_mode: 'air_gapped', metering_mode: 'offline' });
    expect(await attempts(log)).toEqual([]);
    expect(listener.connections() - before).toBe(0);
  });
});
