import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type V3TestApp, v3TestApp } from '../../test/support/v3-test-app.js';
import { readCounters } from '../../core/counters.js';
import { eventsStream } from '../../core/events.js';
import { sourceExtension } from '../../core/v3/source.js';
import { HEADING_TEXT, headingAndParagraphsPdf, mixedScannedPdf } from '../../test/support/pdf-fixtures.js';

describe('v3-pdf document task', () => {
  let t: V3TestApp;
  let server: Server;
  let base: string;
  let pdf: Buffer;
  /** Runs before the loopback server answers a request (set per test). */
  let onRequest: (path: string) => Promise<void> = async () => undefined;

  beforeAll(async () => {
    // Lab mode: the worker may fetch from the loopback test server.
    t = await v3TestApp({ env: { FOLIO_ALLOW_PRIVATE_URLS: 'true' } });
    pdf = await headingAndParagraphsPdf();
    server = createServer((req, res) => {
      void onRequest(req.url ?? '').then(() => {
        if (req.url === '/paper.pdf') return res.end(pdf);
        if (req.url === '/busy.pdf') return res.writeHead(503).end();
        res.writeHead(404).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.close();
    await t?.close();
  });

  const newPdf = async (input: { url?: string; file?: Buffer }, extra: Record<string, unknown> = {}) => {
    const key = await t.newKey();
    const res = input.url
      ? await t.call('POST', '/v3/pdf', { headers: key.headers, json: { url: input.url, ...extra } })
      : await t.call('POST', '/v3/pdf', { headers: key.headers, form: t.form(input.file!, 'doc.pdf', extra) });
    expect(res.status, res.text).toBe(200);
    return res.body.pdf_id as string;
  };
  const events = async () => (await t.ctx.redis.xrange(eventsStream(t.ctx.config.FOLIO_QUEUE_PREFIX), '-', '+')).map(([, f]) => JSON.parse(f[1]!));

  it('fetches a URL document (lab mode), converts it and records usage and the v3.pdf fact', async () => {
    const id = await newPdf({ url: `${base}/paper.pdf` });
    expect(await t.runPdf(id)).toBe('done');
    const rec = await t.pdfs.get(id);
    expect(rec).toMatchObject({ status: 'completed', num_pages: 1, num_pages_completed: 1, error_info: null });
    expect((await t.ctx.storage.readBuffer(`v3/pdf/${id}/${id}.mmd`)).toString()).toContain(HEADING_TEXT);
    const facts = (await events()).filter((e) => e.eventId.includes(id));
    expect(facts).toEqual([
      {
        type: 'usage',
        eventId: `usage:v3pdf:${id}`,
        day: expect.any(String),
        deltas: { pages_completed: 1, pages_failed: 0, documents_completed: 1, documents_failed: 0, pages_billable: 1, documents_billable: 1 },
      },
      { type: 'v3.pdf', eventId: `v3pdf:${id}`, pdfId: id, status: 'completed' },
    ]);
  });

  it('does not count a finished document twice when its task runs again, but re-emits the same facts', async () => {
    const id = await newPdf({ file: pdf });
    await t.runPdf(id);
    const counters = await readCounters(t.ctx.redis, t.ctx.config.FOLIO_QUEUE_PREFIX);
    expect(await t.runPdf(id)).toBe('already completed');
    expect(await readCounters(t.ctx.redis, t.ctx.config.FOLIO_QUEUE_PREFIX)).toEqual(counters);
    const ids = (await events()).filter((e) => e.eventId.includes(id)).map((e) => e.eventId);
    expect(ids).toEqual([`usage:v3pdf:${id}`, `v3pdf:${id}`, `usage:v3pdf:${id}`, `v3pdf:${id}`]);
  });

  it('adds the counters of a document whose worker died between its end state and its counters, once', async () => {
    const id = await newPdf({ file: pdf });
    const before = await readCounters(t.ctx.redis, t.ctx.config.FOLIO_QUEUE_PREFIX);
    // The end state as a killed worker left it: completed, with usage, counters never added.
    const usage = { pages_completed: 1, pages_failed: 0, documents_completed: 1, documents_failed: 0, pages_billable: 1, documents_billable: 1 };
    expect(await t.pdfs.transition(id, ['received'], 'completed', { num_pages_completed: 1, usage })).toBe(true);
    expect(await t.runPdf(id)).toBe('already completed');
    expect(await t.runPdf(id)).toBe('already completed');
    const after = await readCounters(t.ctx.redis, t.ctx.config.FOLIO_QUEUE_PREFIX);
    expect(after.pages_completed - before.pages_completed).toBe(1);
    expect(after.documents_billable - before.documents_billable).toBe(1);
  });

  it('reports a URL that answers 404 as pdf_download_error with the url', async () => {
    const id = await newPdf({ url: `${base}/missing.pdf` });
    await t.runPdf(id);
    expect((await t.pdfs.get(id))?.error_info).toMatchObject({ id: 'pdf_download_error', url: `${base}/missing.pdf`, pdf_id: id });
  });

  it('leaves a 503 to BullMQ retries until the last attempt', async () => {
    const id = await newPdf({ url: `${base}/busy.pdf` });
    await expect(t.runPdf(id, 0)).rejects.toMatchObject({ id: 'pdf_download_error', retryable: true });
    expect((await t.pdfs.get(id))?.status).toBe('received');
    await t.runPdf(id, 2);
    expect((await t.pdfs.get(id))?.error_info).toMatchObject({ id: 'pdf_download_error' });
  });

  it('refuses at fetch time a URL that reaches a private address outside lab mode', async () => {
    const strict = await v3TestApp();
    try {
      const key = await strict.newKey();
      await strict.pdfs.create({
        pdf_id: '2025_06_01_aaaaaaaaaaaaaaaaaaaa',
        app_id: key.app_id,
        group_id: 'default',
        input_file: `${base}/paper.pdf`,
        source: { kind: 'url', url: `${base}/paper.pdf` },
        request_args: {},
        conversion_formats: {},
        callback: null,
        streaming: false,
      });
      await strict.runPdf('2025_06_01_aaaaaaaaaaaaaaaaaaaa');
      const rec = await strict.pdfs.get('2025_06_01_aaaaaaaaaaaaaaaaaaaa');
      expect(rec?.error_info).toMatchObject({ id: 'pdf_download_error', message: expect.stringContaining('refused') });
    } finally {
      await strict.close();
    }
  });

  it('completes a document with a failed page but bills nothing for it', async () => {
    const id = await newPdf({ file: await mixedScannedPdf() });
    await t.runPdf(id); // no OCR here: the scanned page fails
    const rec = await t.pdfs.get(id);
    expect(rec).toMatchObject({ status: 'completed', num_pages: 3, num_pages_completed: 2, num_pages_failed: 1 });
    expect(rec?.page_errors).toEqual([{ page: 2, error_id: 'sys_exception', error_message: expect.any(String) }]);
    const usage = (await events()).find((e) => e.eventId === `usage:v3pdf:${id}`);
    expect(usage.deltas).toMatchObject({ pages_completed: 2, pages_failed: 1, pages_billable: 0, documents_billable: 0, documents_completed: 1 });
  });

  it('stops and cleans up when the document is deleted while it is processed', async () => {
    const key = await t.newKey();
    const { body } = await t.call('POST', '/v3/pdf', { headers: key.headers, json: { url: `${base}/paper.pdf` } });
    onRequest = async () => {
      await t.call('DELETE', `/v3/pdf/${body.pdf_id}`, { headers: key.headers });
    };
    try {
      expect(await t.runPdf(body.pdf_id)).toBe('deleted');
    } finally {
      onRequest = async () => undefined;
    }
    expect(await t.pdfs.get(body.pdf_id)).toBeNull();
    expect(existsSync(fileURLToPath(`${t.ctx.storage.rootUri}v3/pdf/${body.pdf_id}/${body.pdf_id}.mmd`))).toBe(false);
    expect(await t.runPdf(body.pdf_id)).toBe('deleted');
  });

  it('marks requested formats error when the document fails', async () => {
    const id = await newPdf({ file: Buffer.from('not a pdf at all') }, { conversion_formats: { docx: true } });
    await t.runPdf(id);
    expect((await t.pdfs.get(id))?.conversion_status).toEqual({ docx: { status: 'error', error_id: 'pdf_content_type' } });
  });
});

describe('sourceExtension', () => {
  it('takes the extension of a filename or URL path, pdf otherwise', () => {
    expect(sourceExtension('Report.DOCX')).toBe('docx');
    expect(sourceExtension('https://x.example.com/a/b.epub?x=1')).toBe('epub');
    expect(sourceExtension('https://x.example.com/download?id=4')).toBe('pdf');
    expect(sourceExtension('notes')).toBe('pdf');
  });
});
