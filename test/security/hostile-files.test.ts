import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_IDS } from '../../core/errors.js';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { pagedPdf, zeroBytePdf } from '../support/pdf-fixtures.js';
import { pcoClient, sumOfFive } from '../support/pco-client.js';
import { rssKb } from '../reliability/support.js';
import { docxZipBomb, millionPagesPdf, recursiveXrefPdf } from './hostile-files.js';

/**
 * What each hostile file must fail with. recursive-xref: pdf.js opens it (it breaks the /Prev and
 * /Kids loops) and the page's self-referencing form XObject fails the page, which the pipeline
 * records as sys_exception ("Page 1 could not be read: …"); no more specific spec id exists for a
 * page that cannot be rendered.
 */
const HOSTILE: Record<string, { make: () => Promise<Buffer> | Buffer; ids: string[] }> = {
  'bomb.docx': { make: () => docxZipBomb(1), ids: ['content_too_large'] },
  'recursive-xref.pdf': { make: recursiveXrefPdf, ids: ['pdf_content_type', 'sys_exception'] },
  'empty.pdf': { make: zeroBytePdf, ids: ['pdf_content_type'] },
};
/**
 * /Count claims 1,000,000 pages over one real page: pdf.js counts the page tree's real leaves, so
 * the file is processed as the one page it has (no million-page loop, no page limit to hit).
 */
const MILLION = 'million-pages.pdf';
const GOOD = ['good-1.pdf', 'good-2.pdf'];
const SETTLE_MS = 90_000;

// QUALITY.md 5 / issue 9: malicious files through a pco job over file://. Each fails with an id,
// the workers stay alive, the other files complete, and the job settles within a bound.
describe('malicious files in a pco job', () => {
  let app: ApplianceProcess;
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-hostile-'));
    for (const [name, h] of Object.entries(HOSTILE)) await writeFile(join(root, name), await h.make());
    for (const name of GOOD) await writeFile(join(root, name), await pagedPdf(3));
    await writeFile(join(root, MILLION), millionPagesPdf());
    app = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '2' });
  }, 90_000);
  afterAll(async () => {
    await app?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it(
    'fails each hostile file with an id, completes the rest, keeps the workers alive',
    async () => {
      const pco = pcoClient(app.url);
      const workersBefore = app.childPids(/worker\/main\.ts/);
      const t0 = Date.now();
      const created = await pco.create({ input: { folder: `file://${root}/` }, output: { folder: `file://${root}/out/`, layout: 'mirror' } });
      expect(created.status).toBe(201);
      const id = created.body.job_id;

      // Sample health and worker memory while the job runs.
      let peakKb = 0;
      let minAlive = Infinity;
      let settled: any;
      while (!settled && Date.now() - t0 < SETTLE_MS) {
        const h = (await (await fetch(`${app.url}/health`)).json()) as any;
        minAlive = Math.min(minAlive, h.document_workers_alive);
        for (const pid of app.childPids(/worker\/main\.ts/)) peakKb = Math.max(peakKb, await rssKb(pid));
        const j = (await pco.job(id)).body;
        if (['completed', 'completed_with_failures', 'cancelled', 'error'].includes(j.status)) settled = j;
        else await new Promise((r) => setTimeout(r, 250));
      }
      const elapsed = Date.now() - t0;
      expect(settled, `job did not settle within ${SETTLE_MS} ms`).toBeTruthy();
      const files = (await pco.call('GET', `/pco/v1/jobs/${id}/files?limit=100`)).body.files as any[];
      expect(settled.status).toBe('completed_with_failures');
      expect(settled.files).toMatchObject({ discovered: 6, completed: 3, failed: 3 });
      expect(sumOfFive(settled.files)).toBe(6);
      const byName = Object.fromEntries(files.map((f) => [String(f.key).split('/').pop(), f]));
      const got: Record<string, string> = {};
      for (const [name, h] of Object.entries(HOSTILE)) {
        const f = byName[name];
        expect(f, `${name} in ${JSON.stringify(Object.keys(byName))}`).toBeTruthy();
        got[name] = `${f.error_id} (${f.error_message})`;
        expect(f.status, name).toBe('failed');
        expect(ERROR_IDS, name).toContain(f.error_id);
        expect(h.ids, `${name} failed with ${f.error_id}: ${f.error_message ?? ''}`).toContain(f.error_id);
      }
      for (const name of GOOD) expect(byName[name]?.status, name).toBe('completed');
      expect(byName[MILLION]).toMatchObject({ status: 'completed', pages: 1, pages_failed: 0 });
      const rec = (await pco.call('GET', `/pco/v1/jobs/${id}/files/${byName['recursive-xref.pdf'].document_id}`)).body;
      got['recursive-xref.pdf page errors'] = JSON.stringify(rec.page_errors ?? rec.pages_errors ?? rec.errors ?? null);

      // The same worker processes are alive and beating: nothing crashed on the way.
      expect(minAlive).toBeGreaterThanOrEqual(2);
      expect(app.childPids(/worker\/main\.ts/).sort()).toEqual(workersBefore.sort());
      const h = await fetch(`${app.url}/health`);
      expect(h.status).toBe(200);
      console.log(
        `[hostile] settled in ${elapsed} ms; ids ${JSON.stringify(got)}; worker peak RSS ${Math.round(peakKb / 1024)} MB; min document workers alive ${minAlive}`,
      );
    },
    SETTLE_MS + 30_000,
  );
});
