import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { pcoClient, sumOfFive } from '../support/pco-client.js';
import { pagedPdf } from '../support/pdf-fixtures.js';
import { waitFor } from '../support/ports.js';
import { scannedPdf } from '../support/scanned-fixtures.js';

const FILES = 9;
const PAGES = 3;

// QUALITY.md 1–4, the page queue past capacity: three document workers feed scanned pages to one
// inference worker faster than it reads them, with a one-second page limit, so pages wait in the
// 'pages' queue longer than their limit. The limit counts reading, not queueing (run-page.ts
// PageClock), so pages are not failed for waiting; whatever happens, every document must reach a
// terminal state with each page it completed in its output once, the job's counters and the
// usage ledger must agree, and /v3/text, queued ahead of document pages, must keep answering.
describe('page queue past capacity', () => {
  let app: ApplianceProcess;
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-capacity-'));
    await mkdir(join(root, 'in'));
    const pdf = await scannedPdf(await pagedPdf(PAGES));
    for (let i = 0; i < FILES; i++) await writeFile(join(root, 'in', `scan-${i}.pdf`), pdf);
    app = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '4', FOLIO_INFERENCE_WORKERS: '1' });
  }, 90_000);
  afterAll(async () => {
    await app?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('settles every document, keeps pages once and counters equal to the ledger, and keeps /v3/text answering', async () => {
    const pco = pcoClient(app.url);
    const key = await pco.newKey();
    const created = await pco.create({
      input: { folder: `file://${root}/in/` },
      output: { folder: `file://${root}/out/`, layout: 'mirror' },
      policy: { per_page_timeout_seconds: 3, max_retries: 0 },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.job_id as string;

    // An image request while the pages queue is full: it is read ahead of the document pages.
    const png = await import('sharp').then(({ default: sharp }) =>
      sharp({ text: { text: 'Queue jumping works', dpi: 200 } })
        .flatten({ background: '#ffffff' })
        .extend({ top: 20, bottom: 20, left: 20, right: 20, background: '#ffffff' })
        .png()
        .toBuffer(),
    );
    const text = await fetch(`${app.url}/v3/text`, {
      method: 'POST',
      headers: { ...key, 'content-type': 'application/json' },
      body: JSON.stringify({ src: `data:image/png;base64,${png.toString('base64')}` }),
    });
    const textBody = (await text.json()) as { text?: string; error?: string };

    const job = await pco.settled(id, 240_000);
    const files = (await pco.call('GET', `/pco/v1/jobs/${id}/files?limit=100`)).body.files as {
      key: string;
      status: string;
      error_id?: string;
      outputs: Record<string, string>;
    }[];
    // The ledger applies usage events as they arrive: wait until it holds the job's pages.
    const usage = await waitFor(
      async () => {
        const body = (await pco.call('GET', '/pco/v1/usage')).body;
        return body.totals.pages_completed === job.pages.completed && body;
      },
      30_000,
      200,
    ).catch(async () => (await pco.call('GET', '/pco/v1/usage')).body);
    const failedIds = [...new Set(files.filter((f) => f.status === 'failed').map((f) => f.error_id))];
    console.log(
      `[page-queue] job ${job.status}: files ${JSON.stringify(job.files)}, pages ${JSON.stringify(job.pages)}; failed ids ${JSON.stringify(failedIds)}; /v3/text ${text.status} ${JSON.stringify(textBody.text ?? textBody.error)}; ledger ${JSON.stringify(usage.totals ?? usage)}`,
    );

    expect(['completed', 'completed_with_failures']).toContain(job.status);
    expect(sumOfFive(job.files)).toBe(FILES);
    expect(job.files.queued + job.files.processing).toBe(0);
    for (const e of failedIds) expect(['page_timeout']).toContain(e);
    expect(job.pages.completed + job.pages.failed).toBe(FILES * PAGES);
    // Each page a completed document read appears in its output once.
    for (const f of files.filter((f) => f.status === 'completed')) {
      const mmd = await readFile(fileURLToPath(f.outputs.mmd!), 'utf8');
      for (let p = 1; p <= PAGES; p++) expect(mmd.split(`Body of page ${p}.`).length - 1, `${f.key} page ${p}`).toBe(1);
    }
    expect(usage.totals.pages_completed).toBe(job.pages.completed);
    expect(text.status).toBe(200);
    expect(textBody.text).toContain('Queue jumping works');
  }, 300_000);
});
