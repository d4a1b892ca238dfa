import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagedPdf } from '../../test/support/pdf-fixtures.js';
import { type V3TestApp, v3TestApp } from '../../test/support/v3-test-app.js';
import { v3NotificationHandlers } from '../orchestrator/v3-notifications.js';

// The pages of /v3/pdf documents in GET /v3/ocr-results, over the routes with a real Redis and
// file store: the worker's handler reads the document, the appliance's end-of-document handler
// records its pages.
describe('/v3/pdf pages in the image history', () => {
  let t: V3TestApp;
  let key: Awaited<ReturnType<V3TestApp['newKey']>>;
  let documentEnd: NonNullable<ReturnType<typeof v3NotificationHandlers>['v3.pdf']>;

  beforeAll(async () => {
    t = await v3TestApp();
    key = await t.newKey();
    documentEnd = v3NotificationHandlers(t.ctx)['v3.pdf']!;
  });
  afterAll(async () => t?.close());

  const processed = async (options: Record<string, unknown>, pages: number) => {
    const res = await t.call('POST', '/v3/pdf', { headers: key.headers, form: t.form(await pagedPdf(pages), 'paged.pdf', options) });
    const pdfId = res.body.pdf_id as string;
    expect(await t.runPdf(pdfId)).toBe('done');
    await documentEnd({ type: 'v3.pdf', eventId: `v3pdf:${pdfId}`, pdfId, status: 'completed' });
    return pdfId;
  };
  const history = async (query: string) => {
    const res = await t.call('GET', `/v3/ocr-results?${query}`, { headers: { app_key: key.app_key } });
    expect(res.status, res.text).toBe(200);
    return res.body.ocr_results as Array<Record<string, any>>;
  };

  it('lists each page of a completed document, and pdf_id picks that document only', async () => {
    const first = await processed({ rm_spaces: false }, 2);
    const second = await processed({}, 1);
    // The end fact can be consumed twice: the pages are recorded once.
    await documentEnd({ type: 'v3.pdf', eventId: `v3pdf:${first}`, pdfId: first, status: 'completed' });

    const pages = await history(`pdf_id=${first}`);
    expect(pages.map((r) => r.image_id).sort()).toEqual([`${first}-1`, `${first}-2`]);
    for (const n of [1, 2]) {
      const page = pages.find((r) => r.image_id === `${first}-${n}`)!;
      expect(page).toMatchObject({ endpoint: '/v3/pdf', request_args: { rm_spaces: false }, detections: { is_handwritten: false } });
      expect(page.result.text).toContain(`Body of page ${n}.`);
      expect(page.result.text).not.toContain(`Body of page ${3 - n}.`);
      expect(page.timestamp).toEqual(expect.any(String));
    }
    expect((await history(`pdf_id=${second}`)).map((r) => r.image_id)).toEqual([`${second}-1`]);
    expect(await history('pdf_id=2025_01_01_00000000000000000000')).toEqual([]);
    // The unfiltered history holds them with the image requests; other filters apply to them.
    expect((await history('')).map((r) => r.image_id)).toEqual(expect.arrayContaining([`${first}-1`, `${first}-2`, `${second}-1`]));
    expect((await history('text=Body%20of%20page%202')).map((r) => r.image_id)).toEqual([`${first}-2`]);
    expect((await history(`request_id=${first}-2`)).map((r) => r.image_id)).toEqual([`${first}-2`]);
  });

  it('leaves out a document whose metadata set improve_mathpix false', async () => {
    const pdfId = await processed({ metadata: { improve_mathpix: false } }, 1);
    expect(await history(`pdf_id=${pdfId}`)).toEqual([]);
  });

  it('forgets the pages when the document is deleted', async () => {
    const pdfId = await processed({}, 1);
    expect(await history(`pdf_id=${pdfId}`)).toHaveLength(1);
    expect((await t.call('DELETE', `/v3/pdf/${pdfId}`, { headers: key.headers })).status).toBe(200);
    expect(await history(`pdf_id=${pdfId}`)).toEqual([]);
  });
});
