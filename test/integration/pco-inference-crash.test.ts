import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { HEADING_TEXT, headingAndParagraphsPdf } from '../support/pdf-fixtures.js';
import { pcoClient } from '../support/pco-client.js';
import { waitFor } from '../support/ports.js';
import { scannedPdf } from '../support/scanned-fixtures.js';

// Scanned pages are read on the inference pool. Killing the inference worker while it reads
// one must not lose or double a page: BullMQ hands the stalled page task to the restarted worker.
describe('inference worker killed mid-job', () => {
  let app: ApplianceProcess;
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-icrash-'));
    await mkdir(join(root, 'in'));
    const scan = await scannedPdf(await headingAndParagraphsPdf());
    for (let i = 0; i < 3; i++) await writeFile(join(root, 'in', `scan-${i}.pdf`), scan);
    app = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '1', FOLIO_INFERENCE_WORKERS: '1' });
  });
  afterAll(async () => {
    await app?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('completes the job with each page read once', async () => {
    const pco = pcoClient(app.url);
    const created = await pco.create({ input: { folder: `file://${root}/in/` }, policy: { per_page_timeout_seconds: 120 } });
    // Kill while a page task is in the inference worker's hands.
    await waitFor(async () => (await pco.call('GET', '/pco/v1/status')).body.queue_depths.pages > 0, 30_000, 20);
    const [victim] = app.childPids(/worker\/main\.ts inference/);
    process.kill(victim!, 'SIGKILL');
    const done = await pco.settled(created.body.job_id, 150_000);
    expect(done.status).toBe('completed');
    expect(done.files).toMatchObject({ discovered: 3, completed: 3, failed: 0 });
    expect(done.pages).toEqual({ completed: 3, failed: 0 });
    for (let i = 0; i < 3; i++) {
      const mmd = await readFile(join(root, 'in', `scan-${i}.mmd`), 'utf8');
      expect(mmd.split(HEADING_TEXT)).toHaveLength(2);
    }
    const usage = (await pco.call('GET', '/pco/v1/usage')).body.totals;
    await waitFor(async () => (await pco.call('GET', '/pco/v1/usage')).body.totals.pages_billable === 3, 20_000);
    expect(usage.pages_failed).toBe(0);
  }, 200_000);
});
