import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { azw3File, djvuFile, kfxContainerFile, mobiFile, wpdFile } from '../support/ebook-fixtures.js';
import { waitFor } from '../support/ports.js';

/**
 * Spec 4.7's remaining inputs through a running appliance: WordPerfect and MOBI/AZW/AZW3 (born-digital
 * text, via LibreOffice and pandoc), DjVu (a scanned page, via ddjvu and the OCR pool), and the
 * honest refusals: KFX, and a DRM-protected Kindle book.
 */
const WPD_LINES = ['Minutes of the committee meeting held in the library.', 'The budget for the new telescope was approved unanimously.'];
const MOBI_SENTENCE = 'The lighthouse keeper counted the ships that passed every night.';
const DJVU_LINES = ['Proceedings of the Royal Society', 'On the motion of small pendulums'];

const LIGHTHOUSE = {
  title: 'The Lighthouse',
  chapters: [`<h1>The First Night</h1><p>${MOBI_SENTENCE}</p>`, '<h1>The Storm</h1><p>Waves rose higher than the lamp room.</p>'],
};
const book = (encryption = 0) => mobiFile({ ...LIGHTHOUSE, encryption });

describe('issue 5: WPD, MOBI/AZW/AZW3, DjVu and KFX inputs through a running appliance', () => {
  let app: ApplianceProcess;
  let auth: Record<string, string>;
  let djvu: Buffer;

  const call = async (method: string, path: string, form?: FormData) => {
    const res = await fetch(`${app.url}${path}`, { method, headers: auth, body: form });
    const text = await res.text();
    return { status: res.status, text, json: (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : null };
  };
  /** Uploads a document and polls it until it ends; returns its final status and its MMD. */
  const read = async (file: Buffer, filename: string, timeoutMs = 60_000) => {
    const form = new FormData();
    form.append('options_json', '{}');
    form.append('file', new Blob([file]), filename);
    const res = await call('POST', '/v3/pdf', form);
    expect(res.status, res.text).toBe(200);
    const id = res.json.pdf_id as string;
    const done = await waitFor(
      async () => {
        const s = (await call('GET', `/v3/pdf/${id}`)).json;
        return ['completed', 'error'].includes(s.status) && s;
      },
      timeoutMs,
      250,
    );
    return { done, mmd: done.status === 'completed' ? (await call('GET', `/v3/pdf/${id}.mmd`)).text : '' };
  };

  beforeAll(async () => {
    [app, djvu] = await Promise.all([spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '1', FOLIO_INFERENCE_WORKERS: '1' }), djvuFile(DJVU_LINES)]);
    const made = (await fetch(`${app.url}/pco/v1/apps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `inputs-${Date.now()}` }),
    }).then((r) => r.json())) as { app_id: string };
    const key = (await fetch(`${app.url}/pco/v1/apps/${made.app_id}/keys`, { method: 'POST' }).then((r) => r.json())) as { app_key: string };
    auth = { app_id: made.app_id, app_key: key.app_key };
  }, 90_000);
  afterAll(async () => {
    await app?.stop();
  });

  it('reads a WordPerfect document', async () => {
    const { done, mmd } = await read(wpdFile(WPD_LINES), 'minutes.wpd');
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed', num_pages: 1 });
    for (const line of WPD_LINES) expect(mmd).toContain(line);
  }, 70_000);

  it('reads the same book as MOBI, as AZW and as AZW3 (KF8)', async () => {
    for (const [file, name] of [
      [book(), 'lighthouse.mobi'],
      [book(), 'lighthouse.azw'],
      [azw3File(LIGHTHOUSE), 'lighthouse.azw3'],
    ] as const) {
      const { done, mmd } = await read(file, name);
      expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed' });
      expect(mmd, name).toMatch(/^#+ The First Night$/m);
      expect(mmd, name).toContain(MOBI_SENTENCE);
      expect(mmd, name).toMatch(/^#+ The Storm$/m);
    }
  }, 130_000);

  it('reads a DjVu scan through ddjvu and the OCR pool', async () => {
    const { done, mmd } = await read(djvu, 'proceedings.djvu', 90_000);
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed', num_pages: 1, num_pages_completed: 1 });
    for (const line of DJVU_LINES) expect(mmd).toContain(line);
  }, 100_000);

  it('refuses KFX and a DRM-protected Kindle book with unsupported_format', async () => {
    const kfx = await read(kfxContainerFile(), 'book.kfx');
    expect(kfx.done).toMatchObject({
      status: 'error',
      error: 'unsupported_format',
      error_info: { id: 'unsupported_format', message: expect.stringMatching(/KFX.*Calibre/) },
    });
    const drm = await read(book(2), 'locked.azw3');
    expect(drm.done).toMatchObject({ status: 'error', error: 'unsupported_format', error_info: { message: expect.stringMatching(/DRM/) } });
  });
});
