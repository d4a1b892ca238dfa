import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { pagedPdf } from '../support/pdf-fixtures.js';
import { pcoClient, sumOfFive } from '../support/pco-client.js';
import { waitFor } from '../support/ports.js';
import { pageCounts } from './support.js';

const FILES = 30;
const PAGES = 20;

// QUALITY.md 2: SIGTERM to the appliance mid-job. It drains and exits 0; a new appliance on the
// same FOLIO_DATA_DIR (its private redis-server keeps an append-only file there) finishes the job.
describe('appliance SIGTERM mid-job, restart on the same data folder', () => {
  let first: ApplianceProcess | undefined;
  let second: ApplianceProcess | undefined;
  let root: string;
  let dataDir: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-rel-term-'));
    dataDir = join(root, 'data');
    await mkdir(join(root, 'in'), { recursive: true });
    const pdf = await pagedPdf(PAGES);
    for (let i = 0; i < FILES; i++) await writeFile(join(root, 'in', `doc-${String(i).padStart(2, '0')}.pdf`), pdf);
  });
  afterAll(async () => {
    await first?.stop('SIGKILL');
    await second?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('drains, exits 0, and the restarted appliance finishes every page once', async () => {
    first = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '2', FOLIO_DRAIN_SECONDS: '20' }, { dataDir });
    let pco = pcoClient(first.url);
    const created = await pco.create({ input: { folder: `file://${root}/in/` } });
    expect(created.status).toBe(201);
    const id = created.body.job_id;
    await waitFor(
      async () => {
        const j = (await pco.job(id)).body;
        return j.files.completed >= 2 && j.files.processing > 0;
      },
      60_000,
      20,
    );
    const workers = first.childPids(/worker\/main\.ts/);
    expect(workers.length).toBeGreaterThan(0);
    const workerExits = workers.map((pid) => waitForExit(pid));
    const t0 = Date.now();
    const code = await first.stop('SIGTERM');
    const drainMs = Date.now() - t0;
    expect(code).toBe(0);
    // Every worker child is gone once the appliance has exited.
    expect(await Promise.all(workerExits)).toEqual(workers.map(() => true));
    first = undefined;

    second = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '2' }, { dataDir });
    pco = pcoClient(second.url);
    const midway = (await pco.job(id)).body;
    expect(midway.job_id).toBe(id);
    const t1 = Date.now();
    const done = await pco.settled(id, 150_000);
    console.log(
      `[sigterm] drain+exit ${drainMs} ms (exit ${code}); after restart ${midway.files.completed}/${FILES} files done; finished ${Date.now() - t1} ms later`,
    );
    expect(done.status).toBe('completed');
    expect(done.files).toMatchObject({ discovered: FILES, completed: FILES, failed: 0 });
    expect(sumOfFive(done.files)).toBe(FILES);
    expect(done.pages).toEqual({ completed: FILES * PAGES, failed: 0 });
    for (let i = 0; i < FILES; i++) {
      expect(await pageCounts(join(root, 'in', `doc-${String(i).padStart(2, '0')}.mmd`), PAGES)).toEqual(Array(PAGES).fill(1));
    }
  }, 240_000);
});

/** Resolves true once `pid` no longer exists (checked every 100 ms, up to 30 s). */
async function waitForExit(pid: number): Promise<boolean> {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
