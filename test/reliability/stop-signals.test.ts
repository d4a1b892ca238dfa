import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, killQuietly, spawnAppliance } from '../support/appliance.js';
import { pagedPdf } from '../support/pdf-fixtures.js';
import { pcoClient } from '../support/pco-client.js';
import { freePort, waitFor } from '../support/ports.js';
import { RUNTIME_IMPORTS } from '../../core/runtime.js';
import { pageCounts, portFree, processesOf } from './support.js';
import { startUserManager, systemdUnavailable } from './systemd-user.js';

const noSystemd = systemdUnavailable();
if (noSystemd) console.warn(`[stop] the systemd case is skipped: ${noSystemd}`);
const systemdVersion = async () => /systemd (\d+)/.exec((await promisify(execFile)('systemctl', ['--version'])).stdout)?.[1];

const FILES = 3;
const PAGES = 12;
const DRAIN_S = 6;
const INSTALLER = new URL('../../installer/install.sh', import.meta.url);

/**
 * How the appliance is stopped from outside, each with a job in flight:
 * - a terminal's Ctrl-C, `timeout`, or KillMode=control-group: the signal reaches the appliance,
 *   its workers and (were it in the group) its Redis at once;
 * - the installed unit's own stop sequence (installer/install.sh): KillMode=mixed sends SIGTERM to
 *   the main process, and after TimeoutStopSec SIGKILL to whatever is left in the control group;
 *   replayed here, and run for real by `systemctl stop` under a systemd user manager where one
 *   can be started (root, systemd installed: systemd-user.ts).
 * Each must end with exit 0 within FOLIO_DRAIN_SECONDS + 5 s, no Folio or redis-server process
 * left, the port free; a restart on the same data folder finishes the job with each page once and
 * billed once.
 */
describe('stopping the appliance whoever sends the signal', () => {
  let root: string;
  let app: ApplianceProcess | undefined;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-rel-stop-'));
  });
  afterAll(async () => {
    await app?.stop('SIGKILL');
    await rm(root, { recursive: true, force: true });
  });

  /**
   * A unit for this checkout with the installer's [Service] settings that a user manager can
   * apply (not User=, Group=, EnvironmentFile= or the sandboxing lines, which need the system
   * manager), the appliance started as ExecStart starts it.
   */
  const testUnit = async (env: Record<string, string | number>, log: string) => {
    const text = await readFile(INSTALLER, 'utf8');
    const kept = /^(KillMode|TimeoutStopSec|Restart|RestartSec|RestartPreventExitStatus)=.*$/gm;
    return [
      '[Service]',
      'Type=simple',
      `WorkingDirectory=${process.cwd()}`,
      `ExecStart=${process.execPath} ${RUNTIME_IMPORTS.join(' ')} appliance/main.ts`,
      ...Object.entries(env).map(([k, v]) => `Environment=${k}=${v}`),
      `StandardOutput=append:${log}`,
      'StandardError=inherit',
      ...(text.match(kept) ?? []),
    ].join('\n');
  };

  const unit = async () => {
    const text = await readFile(INSTALLER, 'utf8');
    return { killMode: /^KillMode=(\S+)$/m.exec(text)?.[1], timeoutStopS: Number(/^TimeoutStopSec=(\d+)$/m.exec(text)?.[1]) };
  };

  it('the installed unit stops Folio with KillMode=mixed and a TimeoutStopSec beyond the default drain limit', async () => {
    const { killMode, timeoutStopS } = await unit();
    expect(killMode).toBe('mixed');
    // Default FOLIO_DRAIN_SECONDS (20) plus the appliance's own stop margin must fit.
    expect(timeoutStopS).toBeGreaterThanOrEqual(20 + 10);
  });

  const cases: { name: string; stop: (app: ApplianceProcess, dataDir: string) => Promise<number> }[] = [
    { name: 'SIGINT to the process group (Ctrl-C)', stop: async (a) => (process.kill(-a.proc.pid!, 'SIGINT'), 0) },
    { name: 'SIGTERM to the process group (timeout, KillMode=control-group)', stop: async (a) => (process.kill(-a.proc.pid!, 'SIGTERM'), 0) },
    {
      name: "the unit's stop sequence (KillMode=mixed, SIGKILL after TimeoutStopSec)",
      stop: async (a, dataDir) => {
        const { timeoutStopS } = await unit();
        a.proc.kill('SIGTERM');
        await waitFor(() => a.proc.exitCode !== null || a.proc.signalCode !== null, timeoutStopS * 1000, 50).catch(() => undefined);
        const left = await processesOf(dataDir);
        for (const p of left) killQuietly(p.pid);
        return left.length;
      },
    },
  ];

  /** A job of FILES × PAGES pages in `dir`/in with one file processing; `start` runs the appliance on `dataDir`. */
  async function jobInFlight(dir: string, start: (dataDir: string) => Promise<string>) {
    const dataDir = join(dir, 'data');
    await mkdir(join(dir, 'in'));
    const pdf = await pagedPdf(PAGES);
    for (let i = 0; i < FILES; i++) await writeFile(join(dir, 'in', `doc-${i}.pdf`), pdf);
    const url = await start(dataDir);
    const pco = pcoClient(url);
    const id = (await pco.create({ input: { folder: `file://${dir}/in/` } })).body.job_id as string;
    await waitFor(async () => (await pco.job(id)).body.files.processing > 0, 60_000, 20);
    const before = (await processesOf(dataDir)).map((p) => p.cmd);
    expect(before.some((c) => c.includes('redis-server'))).toBe(true);
    return { dataDir, id, port: Number(new URL(url).port), processes: before.length };
  }

  /** What is left once the stop returned, killed so the next case starts clean. */
  async function leftOver(dataDir: string) {
    const left = await waitFor(async () => ((await processesOf(dataDir)).length === 0 ? [] : false), 2000, 100).catch(() => processesOf(dataDir));
    for (const p of left) killQuietly(p.pid);
    return left;
  }

  /** A restart on the same data folder finishes the job with each page once and billed once. */
  async function restartFinishes(dir: string, dataDir: string, id: string) {
    // A start on a loaded machine took over 60 s (load average 22, after the systemd case).
    app = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '1' }, { dataDir, startTimeoutMs: 120_000 });
    const pco = pcoClient(app.url);
    const done = await pco.settled(id, 120_000);
    expect(done.files).toMatchObject({ discovered: FILES, completed: FILES, failed: 0 });
    expect(done.pages).toEqual({ completed: FILES * PAGES, failed: 0 });
    for (let i = 0; i < FILES; i++) expect(await pageCounts(join(dir, 'in', `doc-${i}.mmd`), PAGES)).toEqual(Array(PAGES).fill(1));
    const billed = await waitFor(
      async () => {
        const totals = (await pco.call('GET', '/pco/v1/usage')).body.totals;
        return totals.pages_billable === FILES * PAGES && totals;
      },
      20_000,
      200,
    ).catch(async () => (await pco.call('GET', '/pco/v1/usage')).body.totals);
    expect(billed.pages_billable).toBe(FILES * PAGES);
    await app.stop();
    app = undefined;
  }

  it.each(cases)(
    '$name: exits 0 in time, leaves nothing, and a restart finishes the job once',
    async ({ name, stop }) => {
      const dir = await mkdtemp(join(root, 'case-'));
      const { dataDir, id, port, processes } = await jobInFlight(dir, async (dataDir) => {
        app = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '1', FOLIO_DRAIN_SECONDS: String(DRAIN_S) }, { dataDir, ownGroup: true });
        return app.url;
      });
      const exited = new Promise<number | null>((r) => (app!.proc.exitCode !== null ? r(app!.proc.exitCode) : app!.proc.once('exit', (code) => r(code))));
      const t0 = Date.now();
      const killedAfterTimeout = await stop(app!, dataDir);
      const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), (DRAIN_S + 30) * 1000))]);
      const stopMs = Date.now() - t0;
      const left = await leftOver(dataDir);
      const free = await portFree(port);
      console.log(
        `[stop] ${name}: exit ${code} after ${stopMs} ms (limit ${(DRAIN_S + 5) * 1000}); ${processes} processes before, ${left.length} after; SIGKILLed by the emulated systemd: ${killedAfterTimeout}; port free: ${free}`,
      );
      if (code === 'hung') await app!.stop('SIGKILL');
      app = undefined;
      expect(code).toBe(0);
      expect(stopMs).toBeLessThan((DRAIN_S + 5) * 1000);
      expect(left).toEqual([]);
      expect(killedAfterTimeout).toBe(0);
      expect(free).toBe(true);
      await restartFinishes(dir, dataDir, id);
    },
    180_000,
  );

  // The same under systemd itself: the unit's [Service] stop settings from the installer, started
  // and stopped by a real systemd manager (systemd-user.ts). `systemctl stop` returns once the
  // control group is empty; Result=success means no SIGKILL after TimeoutStopSec was needed.
  it.skipIf(noSystemd)(
    "systemctl stop of a unit with the installer's settings: exits 0 in time, leaves nothing, and a restart finishes the job once",
    async () => {
      const manager = await startUserManager();
      try {
        const dir = await mkdtemp(join(root, 'case-'));
        const { dataDir, id, port, processes } = await jobInFlight(dir, async (dataDir) => {
          const port = await freePort();
          const env = {
            PORT: port,
            HOST: '127.0.0.1',
            FOLIO_DATA_DIR: dataDir,
            FOLIO_HEARTBEAT_MS: 300,
            FOLIO_LOG_LEVEL: 'warn',
            FOLIO_DOCUMENT_WORKERS: 1,
            FOLIO_DRAIN_SECONDS: DRAIN_S,
          };
          await manager.install('folio.service', await testUnit(env, join(dir, 'appliance.log')));
          await manager.systemctl('start', 'folio.service');
          const url = `http://127.0.0.1:${port}`;
          await waitFor(async () => (await fetch(`${url}/health`)).status === 200, 60_000, 200);
          return url;
        });
        const t0 = Date.now();
        await manager.systemctl('stop', 'folio.service');
        const stopMs = Date.now() - t0;
        const show = await manager.systemctl('show', '-p', 'Result,ExecMainStatus', 'folio.service');
        const left = await leftOver(dataDir);
        const free = await portFree(port);
        console.log(
          `[stop] systemctl stop (systemd ${await systemdVersion()}): ${stopMs} ms (limit ${(DRAIN_S + 5) * 1000}); ${processes} processes before, ${left.length} after; ${show.trim().split('\n').join(' ')}; port free: ${free}`,
        );
        expect(show).toContain('Result=success');
        expect(show).toContain('ExecMainStatus=0'); // killed by its SIGTERM it would be 15, which Result= counts as success
        expect(stopMs).toBeLessThan((DRAIN_S + 5) * 1000);
        expect(left).toEqual([]);
        expect(free).toBe(true);
        await restartFinishes(dir, dataDir, id);
      } finally {
        await manager.stop();
      }
    },
    180_000,
  );
});
