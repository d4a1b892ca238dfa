import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADING_TEXT, headingAndParagraphsPdf, pagedPdf } from '../../../test/support/pdf-fixtures.js';
import { type V3TestApp, v3TestApp } from '../../../test/support/v3-test-app.js';

describe('/v3/pdf happy paths', () => {
  let t: V3TestApp;
  let key: Awaited<ReturnType<V3TestApp['newKey']>>;
  let pdf: Buffer;

  beforeAll(async () => {
    t = await v3TestApp();
    key = await t.newKey();
    pdf = await headingAndParagraphsPdf();
  });
  afterAll(async () => t?.close());

  const upload = async (options?: unknown, file = pdf, name = 'paper.pdf') => {
    const res = await t.call('POST', '/v3/pdf', { headers: key.headers, form: t.form(file, name, options) });
    expect(res.status, res.text).toBe(200);
    return res.body.pdf_id as string;
  };

  it('takes a multipart upload, queues one task and answers {pdf_id}', async () => {
    const pdfId = await upload({ include_page_breaks: false });
    expect(pdfId).toMatch(/^\d{4}_\d{2}_\d{2}_[0-9a-f]{20}$/);
    const status = await t.call('GET', `/v3/pdf/${pdfId}`, { headers: key.headers });
    expect(status.body).toMatchObject({ status: 'received', input_file: 'paper.pdf', num_pages: 0, num_pages_completed: 0, percent_done: 0 });
    expect(status.body.version).toEqual(expect.any(String));
    const tasks = await t.waiting('v3-documents');
    expect(tasks).toContainEqual({ id: `v3pdf-${pdfId}`, name: 'v3-pdf', data: { pdfId } });
  });

  it('processes the document: completed, percent_done 100, mmd/md/lines downloads and requested formats', async () => {
    const pdfId = await upload({ conversion_formats: { html: true, docx: true } });
    expect(await t.runPdf(pdfId)).toBe('done');
    const status = await t.call('GET', `/v3/pdf/${pdfId}`, { headers: key.headers });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ status: 'completed', num_pages: 1, num_pages_pdf: 1, num_pages_completed: 1, percent_done: 100 });
    expect(status.body).not.toHaveProperty('error');

    const mmd = await t.call('GET', `/v3/pdf/${pdfId}.mmd`, { headers: key.headers });
    expect(mmd.status).toBe(200);
    expect(mmd.headers.get('content-type')).toContain('text/markdown');
    expect(mmd.headers.get('content-disposition')).toBe(`attachment; filename="${pdfId}.mmd"`);
    expect(mmd.text).toContain(HEADING_TEXT);
    expect((await t.call('GET', `/v3/pdf/${pdfId}.md`, { headers: key.headers })).text).toBe(mmd.text);
    const lines = await t.call('GET', `/v3/pdf/${pdfId}.lines.json`, { headers: key.headers });
    expect(lines.headers.get('content-type')).toContain('application/json');
    expect(lines.body.pages).toHaveLength(1);
    expect((await t.call('GET', `/v3/pdf/${pdfId}.lines.mmd.json`, { headers: key.headers })).body.pages).toHaveLength(1);
    const html = await t.call('GET', `/v3/pdf/${pdfId}.html`, { headers: key.headers });
    expect(html.status).toBe(200);
    expect(html.text).toContain(HEADING_TEXT);
    const docx = await t.call('GET', `/v3/pdf/${pdfId}.docx`, { headers: key.headers });
    expect(docx.buf.subarray(0, 2).toString()).toBe('PK');

    const formats = await t.call('GET', `/v3/converter/${pdfId}`, { headers: key.headers });
    expect(formats.body).toMatchObject({ status: 'completed', conversion_status: { html: { status: 'completed' }, docx: { status: 'completed' } } });
  });

  it('takes a JSON url submission and records its options as request_args', async () => {
    const res = await t.call('POST', '/v3/pdf', { headers: key.headers, json: { url: 'https://docs.example.com/a.pdf', rm_spaces: true, page_ranges: '1' } });
    expect(res.status).toBe(200);
    const rec = await t.pdfs.get(res.body.pdf_id);
    expect(rec).toMatchObject({
      input_file: 'https://docs.example.com/a.pdf',
      source: { kind: 'url' },
      request_args: { rm_spaces: true, page_ranges: '1' },
      app_id: key.app_id,
    });
  });

  it('counts pages as they finish and honours page_ranges', async () => {
    const pdfId = await upload({ page_ranges: '2-3' }, await pagedPdf(4));
    await t.runPdf(pdfId);
    const { body } = await t.call('GET', `/v3/pdf/${pdfId}`, { headers: key.headers });
    expect(body).toMatchObject({ status: 'completed', num_pages: 2, num_pages_pdf: 4, num_pages_completed: 2, percent_done: 100 });
  });

  it('streams page results as server-sent events when streaming was requested', async () => {
    const pdfId = await upload({ streaming: true }, await pagedPdf(2));
    await t.runPdf(pdfId);
    const res = await t.call('GET', `/v3/pdf/${pdfId}/stream`, { headers: key.headers });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = res.text
      .trim()
      .split('\n\n')
      .map((block) => Object.fromEntries(block.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()])));
    expect(events.map((e) => e.event)).toEqual(['page', 'page', 'done']);
    expect(JSON.parse(events[0]!.data!)).toMatchObject({ pdf_id: pdfId, page: 1, status: 'completed', mmd: expect.any(String) });
    expect(JSON.parse(events[2]!.data!)).toMatchObject({ status: 'completed', percent_done: 100 });
    // Resuming after the first page sends the rest.
    const resumed = await t.call('GET', `/v3/pdf/${pdfId}/stream`, { headers: { ...key.headers, 'last-event-id': '0' } });
    expect(resumed.text.match(/event: page/g)).toHaveLength(1);
  });

  it('streams pages as the worker produces them', async () => {
    const pdfId = await upload({ streaming: true }, await pagedPdf(3));
    const res = await t.app.request(`/v3/pdf/${pdfId}/stream`, { headers: key.headers });
    const text = res.text();
    await t.runPdf(pdfId);
    const events = (await text).match(/^event: \w+/gm);
    expect(events).toEqual(['event: page', 'event: page', 'event: page', 'event: done']);
  });

  it('makes mmd.overlay.pdf: the source pages with the recognised lines as invisible text where they are printed', async () => {
    const pdfId = await upload({ conversion_formats: { 'mmd.overlay.pdf': true } });
    expect(await t.runPdf(pdfId)).toBe('done');
    const res = await t.call('GET', `/v3/pdf/${pdfId}.mmd.overlay.pdf`, { headers: key.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/pdf');
    // The printed page stays (pdftotext finds its words); the layer's placement over a page without
    // text of its own is checked in worker/document/convert-overlay.test.ts.
    const dir = await mkdtemp(join(tmpdir(), 'folio-overlay-'));
    try {
      await writeFile(join(dir, 'o.pdf'), res.buf);
      const { stdout } = await promisify(execFile)('pdftotext', [join(dir, 'o.pdf'), '-']);
      expect(stdout).toContain(HEADING_TEXT);
      expect((await promisify(execFile)('pdfinfo', [join(dir, 'o.pdf')])).stdout).toMatch(/Pages:\s+1\n/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("lists the app's records newest first with page, per_page and dates", async () => {
    const other = await t.newKey();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      t.advance(60_000);
      const res = await t.call('POST', '/v3/pdf', { headers: other.headers, json: { url: `https://docs.example.com/${i}.pdf` } });
      ids.push(res.body.pdf_id);
    }
    const all = await t.call('GET', '/v3/pdf-results', { headers: { app_key: other.app_key } });
    expect(all.status).toBe(200);
    expect(all.body.pdfs.map((p: any) => p.id)).toEqual([...ids].reverse());
    expect(all.body.pdfs[0]).toEqual({
      id: ids[2],
      input_file: 'https://docs.example.com/2.pdf',
      status: 'received',
      created_at: expect.any(String),
      modified_at: expect.any(String),
      num_pages: 0,
      num_pages_completed: 0,
      request_args: {},
    });
    const page2 = await t.call('GET', '/v3/pdf-results?page=2&per_page=2', { headers: { app_key: other.app_key } });
    expect(page2.body.pdfs.map((p: any) => p.id)).toEqual([ids[0]]);
    const created1 = all.body.pdfs[1].created_at;
    const ranged = await t.call('GET', `/v3/pdf-results?from_date=${created1}&to_date=${created1}`, { headers: { app_key: other.app_key } });
    expect(ranged.body.pdfs.map((p: any) => p.id)).toEqual([ids[1]]);
    // Another app's records are not listed.
    const mine = await t.call('GET', '/v3/pdf-results', { headers: key.headers });
    expect(mine.body.pdfs.some((p: any) => ids.includes(p.id))).toBe(false);
    // pdf_id narrows to one record; another app's id, an unknown one or an unknown filter never lists the rest.
    const one = await t.call('GET', `/v3/pdf-results?pdf_id=${ids[1]}`, { headers: { app_key: other.app_key } });
    expect(one.body.pdfs.map((p: any) => p.id)).toEqual([ids[1]]);
    expect((await t.call('GET', `/v3/pdf-results?pdf_id=${ids[1]}`, { headers: key.headers })).body.pdfs).toEqual([]);
    expect((await t.call('GET', '/v3/pdf-results?pdf_id=2025_01_01_00000000000000000000', { headers: { app_key: other.app_key } })).body.pdfs).toEqual([]);
    const unknown = await t.call('GET', '/v3/pdf-results?colour=red', { headers: { app_key: other.app_key } });
    expect([unknown.status, unknown.body.error]).toEqual([400, 'bad_request']);
    expect((await t.call('GET', `/v3/pdf-results?app_id=${other.app_id}`, { headers: key.headers })).body.pdfs).toHaveLength(3);
  });

  it('deletes source and outputs at once, then answers 404', async () => {
    const pdfId = await upload();
    await t.runPdf(pdfId);
    const folder = fileURLToPath(`${t.ctx.storage.rootUri}v3/pdf/${pdfId}/`);
    expect(existsSync(`${folder}${pdfId}.mmd`)).toBe(true);
    const del = await t.call('DELETE', `/v3/pdf/${pdfId}`, { headers: key.headers });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ pdf_id: pdfId, status: 'deleted' });
    expect(existsSync(`${folder}${pdfId}.mmd`)).toBe(false);
    expect(existsSync(`${folder}source.pdf`)).toBe(false);
    for (const path of [`/v3/pdf/${pdfId}`, `/v3/pdf/${pdfId}.mmd`]) {
      const res = await t.call('GET', path, { headers: key.headers });
      expect(res.status, path).toBe(404);
      expect(res.body.error).toBe('not_found');
    }
    expect((await t.call('DELETE', `/v3/pdf/${pdfId}`, { headers: key.headers })).status).toBe(404);
  });

  it('lets another app of the same group read a record', async () => {
    const pdfId = await upload();
    const sibling = await t.newKey(undefined, 'default');
    expect((await t.call('GET', `/v3/pdf/${pdfId}`, { headers: sibling.headers })).status).toBe(200);
  });
});
