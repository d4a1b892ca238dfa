import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { pcoClient } from '../support/pco-client.js';
import { mathPdf, pagedPdf, truncatedPdf } from '../support/pdf-fixtures.js';
import { waitFor } from '../support/ports.js';
import { type ConsoleBrowser, openConsoleBrowser } from './support/browser.js';

const GOOD_FILES = 30;
const PAGES_EACH = 2;
const JOB_NAME = 'console e2e papers';
const today = () => new Date().toISOString().slice(0, 10);

/** Pixels of the console's accent colour (#0b5cad) on the first chart canvas: a drawn bar or line. */
const ACCENT_PIXELS = `(() => {
  const c = document.querySelector('.chart canvas');
  if (!c) return 0;
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] === 11 && d[i + 1] === 92 && d[i + 2] === 173) n++;
  return n;
})()`;
/** Dark pixels on the File page's source canvas: text drawn by pdf.js. */
const INK_PIXELS = `(() => {
  const c = document.querySelector('#file-source canvas');
  if (!c || !c.width) return 0;
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && d[i] < 100 && d[i + 1] < 100 && d[i + 2] < 100) n++;
  return n;
})()`;
const PAGE_OVERFLOWS = '(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)()';

// The operator console end to end: a real appliance with its workers, a job over a file:// folder
// created through the API, and the console driven in headless Chromium. Screenshots land in
// test/e2e/screenshots/ (git-ignored).
describe('operator console', () => {
  let app: ApplianceProcess;
  let browser: ConsoleBrowser;
  let root: string;
  let input: string;
  let jobId: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-console-'));
    input = join(root, 'in');
    await mkdir(input);
    const good = await pagedPdf(PAGES_EACH);
    await Promise.all(Array.from({ length: GOOD_FILES }, (_, i) => writeFile(join(input, `paper-${String(i + 1).padStart(2, '0')}.pdf`), good)));
    await writeFile(join(input, 'bad.pdf'), await truncatedPdf());
    app = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '2', FOLIO_INFERENCE_WORKERS: '1' });
    const served = await fetch(`${app.url}/console/`);
    if (served.status !== 200) throw new Error(`GET /console/ answered ${served.status}: is consoleRoutes() mounted in appliance/appliance.ts?`);
    browser = await openConsoleBrowser(app.url);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await rm(root, { recursive: true, force: true });
  });

  const page = () => browser.page;

  it('serves the console at /console with the overview: health ok and workers alive', async () => {
    await page().goto(`${app.url}/console/`);
    await page().getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    const health = page().getByRole('region', { name: 'Health' });
    await health.getByText('ok', { exact: true }).first().waitFor();
    await waitFor(async () => /Document workers\s*2 of 2 alive/.test((await health.textContent()) ?? ''), 10_000, 200);
    expect(await health.textContent()).toMatch(/GPU workers\s*1 of 1 alive/);
    await page().getByRole('region', { name: 'Licence' }).getByText('Mode').waitFor();
    await browser.shot('overview');

    // Keyboard: the first Tab lands on the skip link, which is then shown.
    await page().keyboard.press('Tab');
    expect(await page().evaluate("document.activeElement?.classList.contains('skip-link') === true")).toBe(true);
  });

  it('lists the job created through the API and its progress bar reaches 100 %', async () => {
    const pco = pcoClient(app.url);
    const created = await pco.create({ name: JOB_NAME, input: { folder: `file://${input}/` } });
    expect(created.status).toBe(201);
    jobId = created.body.job_id;

    await page().goto(`${app.url}/console/#/jobs`);
    const row = page()
      .getByRole('row')
      .filter({ has: page().getByRole('link', { name: JOB_NAME }) });
    await row.waitFor();
    const bar = row.getByRole('progressbar');
    const seen = new Set<string>();
    await waitFor(
      async () => {
        const v = (await bar.getAttribute('aria-valuenow')) ?? '';
        seen.add(v);
        return v === '100';
      },
      60_000,
      250,
    );
    expect(await row.textContent()).toContain('completed with failures');
    expect(seen.size).toBeGreaterThan(1); // it moved while we watched, polled every 2 s
    await browser.shot('jobs');
  });

  it('shows the job with its failed file grouped under pdf_content_type', async () => {
    await page().getByRole('link', { name: JOB_NAME }).click();
    await page().getByRole('heading', { level: 1, name: JOB_NAME }).waitFor();
    const group = page().locator('section[data-error-id="pdf_content_type"]');
    await group.waitFor();
    expect(await group.textContent()).toMatch(/pdf_content_type — 1 file/);
    expect(await group.getByRole('link').textContent()).toMatch(/bad\.pdf$/);
    const counters = page().getByRole('region', { name: 'Counters' });
    expect(await counters.textContent()).toMatch(/Completed\s*30/);
    expect(await page().getByRole('link', { name: 'Download NDJSON report' }).getAttribute('href')).toBe(`/pco/v1/jobs/${jobId}/report`);
    await browser.shot('job');

    await group.getByRole('link').click();
    await page()
      .getByRole('heading', { level: 1, name: /bad\.pdf$/ })
      .waitFor();
    expect(await page().getByRole('region', { name: 'Summary' }).textContent()).toContain('pdf_content_type');
    await browser.shot('file');
    await page().goBack();
    await group.waitFor();
  });

  it('retries the failed file after it is replaced on disk and shows the job completed', async () => {
    await writeFile(join(input, 'bad.pdf'), await pagedPdf(PAGES_EACH));
    await page().locator('section[data-error-id="pdf_content_type"]').getByRole('button', { name: 'Retry 1 file' }).click();
    await page().getByRole('status').filter({ hasText: '1 file requeued' }).waitFor();
    await page()
      .locator('.title-row .badge')
      .filter({ hasText: /^completed$/ })
      .waitFor({ timeout: 30_000 });
    await page().getByText('No failed files.').waitFor();
    expect(await page().getByRole('region', { name: 'Counters' }).textContent()).toMatch(/Completed\s*31/);
    await browser.shot('job-after-retry');

    // A completed document: the MMD rendered beside its source page, both read through the file routes.
    await page()
      .getByRole('link', { name: /paper-01\.pdf$/ })
      .click();
    const outputs = page().getByRole('region', { name: 'Outputs' });
    await outputs.getByText('mmd', { exact: true }).waitFor();
    expect(await outputs.textContent()).toContain(`file://${join(input, 'paper-01.mmd')}`);
    expect(await outputs.getByRole('link', { name: 'Download mmd' }).getAttribute('href')).toMatch(
      new RegExp(`^/pco/v1/jobs/${jobId}/files/[^/]+/outputs/mmd$`),
    );
    const preview = page().getByRole('region', { name: 'Recognised MMD beside the source' });
    await preview.locator('#file-mmd').getByText('Body of page 1.').waitFor({ timeout: 20_000 });
    expect(await preview.locator('#file-mmd').textContent()).toContain('Body of page 2.');
    await preview.getByText('paper-01.pdf: page 1 of 2').waitFor({ timeout: 20_000 });
    await waitFor(async () => Number(await page().evaluate(INK_PIXELS)) > 100, 5_000, 100);
    await browser.shot('file-completed');
    // The page selector draws another source page.
    await preview.getByLabel('Source page').selectOption('2');
    await preview.getByText('paper-01.pdf: page 2 of 2').waitFor();
    expect(Number(await page().evaluate(INK_PIXELS))).toBeGreaterThan(100);
    await browser.shot('file-completed-page-2');
  });

  it('shows today in the usage chart and table', async () => {
    await page().goto(`${app.url}/console/#/usage`);
    const row = page().locator(`tr[data-day="${today()}"]`);
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    expect(Number(cells[1]!.replaceAll(',', ''))).toBe((GOOD_FILES + 1) * PAGES_EACH); // pages billable
    await waitFor(async () => Number(await page().evaluate(ACCENT_PIXELS)) > 50, 5_000, 100);
    expect(await page().locator('#usage-csv').getAttribute('download')).toMatch(/^folio-usage-.*\.csv$/);
    await browser.shot('usage');
  });

  it('renders MMD maths offline, and recognises an uploaded PDF when /v3/pdf answers', async () => {
    const v3 = (await fetch(`${app.url}/v3/pdf`, { method: 'POST' })).status !== 404;
    await page().goto(`${app.url}/console/#/try`);
    await page().locator('#mmd-output mjx-container').first().waitFor({ timeout: 20_000 });
    if (!v3) {
      await page().locator('#try-unavailable').waitFor();
      await browser.shot('try-it');
      return;
    }
    // An app key made through the operator routes, typed in as an operator would.
    const pco = pcoClient(app.url);
    const made = await pco.call('POST', '/pco/v1/apps', { name: 'console try-it' });
    const key = await pco.call('POST', `/pco/v1/apps/${made.body.app_id}/keys`);
    await page().getByLabel('app_id').fill(made.body.app_id);
    await page().getByLabel('app_key').fill(key.body.app_key);
    await page()
      .locator('#try-file')
      .setInputFiles({ name: 'maths.pdf', mimeType: 'application/pdf', buffer: await mathPdf() });
    await page().getByRole('button', { name: 'Recognise' }).click();
    const out = page().locator('#try-output');
    await out.locator('mjx-container').first().waitFor({ timeout: 30_000 });
    expect(await out.textContent()).toContain('The display above ends the example.');
    await page().getByText('maths.pdf: page 1 of 1').waitFor(); // the source page, drawn beside it
    await browser.shot('try-it');
  });

  it('stays usable at 768 px: no page-wide horizontal scrolling', async () => {
    await page().setViewportSize({ width: 768, height: 1000 });
    for (const [hash, name] of [
      ['#/', 'overview-768'],
      [`#/jobs/${jobId}`, 'job-768'],
    ] as const) {
      await page().goto(`${app.url}/console/${hash}`);
      await page().locator('main h1').first().waitFor();
      await page().waitForTimeout(500);
      expect(await page().evaluate(PAGE_OVERFLOWS)).toBe(false);
      await browser.shot(name);
    }
  });

  it('loaded nothing from outside the appliance and logged no errors', () => {
    expect(browser.foreignRequests).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });
});
