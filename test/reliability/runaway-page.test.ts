import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { runawayPagePdf } from '../support/pdf-fixtures.js';
import { pcoClient } from '../support/pco-client.js';

const LIMIT_S = 3;

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat (clock ticks of 1/100 s). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

// A page crafted to keep pdf.js busy for minutes (2^20 nested form calls) between two ordinary
// pages, through a real document worker. pdf.js cannot cancel a page: before pages were read in a
// thread the page was marked failed but kept the worker's CPU busy in the background.
describe('a runaway page in a real document worker', () => {
  let app: ApplianceProcess;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-rel-runaway-'));
    await mkdir(join(dir, 'in'));
    await writeFile(join(dir, 'in', 'runaway.pdf'), runawayPagePdf(20));
    app = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '1', FOLIO_INFERENCE_WORKERS: '0' });
  });
  afterAll(async () => {
    await app?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('fails page_timeout, the worker CPU is idle right after, and the other pages complete', async () => {
    const [worker] = app.childPids(/worker\/main\.ts document/);
    expect(worker).toBeGreaterThan(0);
    const pco = pcoClient(app.url);
    const created = await pco.create({ input: { folder: `file://${dir}/in/` }, policy: { per_page_timeout_seconds: LIMIT_S, max_retries: 0 } });
    expect(created.status).toBe(201);
    const t0 = Date.now();
    const done = await pco.settled(created.body.job_id, 120_000);
    const settledMs = Date.now() - t0;
    const cpu0 = await cpuSeconds(worker!);
    await new Promise((r) => setTimeout(r, 2000));
    const cpuAfter = (await cpuSeconds(worker!)) - cpu0;
    const files = (await pco.call('GET', `/pco/v1/jobs/${created.body.job_id}/files`)).body.files;
    const file = (await pco.call('GET', `/pco/v1/jobs/${created.body.job_id}/files/${files[0].document_id}`)).body;
    const mmd = await readFile(join(dir, 'in', 'runaway.mmd'), 'utf8');
    console.log(
      `[runaway] job ${done.status} in ${settledMs} ms (page limit ${LIMIT_S} s); pages ${JSON.stringify(done.pages)}; page_errors ${JSON.stringify(file.page_errors)}; worker CPU in the 2 s after: ${cpuAfter.toFixed(2)} s`,
    );
    expect(done.pages).toEqual({ completed: 2, failed: 1 });
    expect(file.page_errors).toEqual([expect.objectContaining({ page: 2, error_id: 'page_timeout' })]);
    expect(mmd).toContain('Body of page 1.');
    expect(mmd).toContain('Body of page 3.');
    expect(cpuAfter).toBeLessThan(0.3);
  }, 180_000);
});
