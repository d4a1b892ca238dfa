import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, killQuietly, spawnAppliance } from '../support/appliance.js';
import { pagedPdf } from '../support/pdf-fixtures.js';
import { pcoClient } from '../support/pco-client.js';
import { waitFor } from '../support/ports.js';
import { pageCounts, portFree, processesOf } from './support.js';

const FILES = 3;
const PAGES = 12;
const DRAIN_S = 6;
const INSTALLER = new URL('../../installer/install.sh', import.meta.url);

/**
 * How the appliance is stopped from outside, each with a job in flight:
 * - a terminal's Ctrl-C, `timeout`, or KillMode=control-group: the signal reaches the appliance,
 *   its workers and (were it in the group) its Redis at once;
 * - the installed unit's own stop sequence (installer/install.sh): KillMode=mixed sends SIGTERM to
 *   the main process, and after TimeoutStopSec SIGKILL to whatever is left in the control group.
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

  it.each(cases)(
    '$name: exits 0 in time, leaves nothing, and a restart finishes the job once',
    async ({ name, stop }) => {
      const dir = await mkdtemp(join(root, 'case-'));
      const dataDir = join(dir, 'data');
      await mkdir(join(dir, 'in'));
      const pdf = await pagedPdf(PAGES);
      for (let i = 0; i < FILES; i++) await writeFile(join(dir, 'in', `doc-${i}.pdf`), pdf);

      app = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '1', FOLIO_DRAIN_SECONDS: String(DRAIN_S) }, { dataDir, ownGroup: true });
      const port = Number(new URL(app.url).port);
      let pco = pcoClient(app.url);
      const id = (await pco.create({ input: { folder: `file://${dir}/in/` } })).body.job_id as string;
      await waitFor(async () => (await pco.job(id)).body.files.processing > 0, 60_000, 20);
      const before = (await processesOf(dataDir)).map((p) => p.cmd);
      expect(before.some((c) => c.includes('redis-server'))).toBe(true);

      const exited = new Promise<number | null>((r) => (app!.proc.exitCode !== null ? r(app!.proc.exitCode) : app!.proc.once('exit', (code) => r(code))));
      const t0 = Date.now();
      const killedAfterTimeout = await stop(app, dataDir);
      const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), (DRAIN_S + 30) * 1000))]);
      const stopMs = Date.now() - t0;
      const left = await waitFor(async () => ((await processesOf(dataDir)).length === 0 ? [] : false), 2000, 100).catch(() => processesOf(dataDir));
      const free = await portFree(port);
      console.log(
        `[stop] ${name}: exit ${code} after ${stopMs} ms (limit ${(DRAIN_S + 5) * 1000}); ${before.length} processes before, ${left.length} after; SIGKILLed by the emulated systemd: ${killedAfterTimeout}; port free: ${free}`,
      );
      if (code === 'hung') await app.stop('SIGKILL');
      app = undefined;
      for (const p of left) killQuietly(p.pid);
      expect(code).toBe(0);
      expect(stopMs).toBeLessThan((DRAIN_S + 5) * 1000);
      expect(left).toEqual([]);
      expect(killedAfterTimeout).toBe(0);
      expect(free).toBe(true);

      app = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '1' }, { dataDir });
      pco = pcoClient(app.url);
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
    },
    180_000,
  );
});
