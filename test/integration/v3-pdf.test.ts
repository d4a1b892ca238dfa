import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { startHttpsReceiver } from '../support/https-receiver.js';
import { HEADING_TEXT, PARAGRAPH_ONE, headingAndParagraphsPdf, pagedPdf, truncatedPdf } from '../support/pdf-fixtures.js';
import { waitFor } from '../support/ports.js';
import { scannedPdf } from '../support/scanned-fixtures.js';

const run = promisify(execFile);

/** A v3 client of one appliance with one app key, made through the operator routes. */
async function v3Client(base: string) {
  const call = async (method: string, path: string, init: { headers?: Record<string, string>; json?: unknown; form?: FormData } = {}) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
      body: init.form ?? (init.json !== undefined ? JSON.stringify(init.json) : undefined),
    });
    const buf = Buffer.from(await res.arrayBuffer());
    let body: any = null;
    try {
      body = JSON.parse(buf.toString('utf8'));
    } catch {
      // a download
    }
    return { status: res.status, headers: res.headers, body, buf, text: buf.toString('utf8') };
  };
  const app = await call('POST', '/pco/v1/apps', { json: { name: `it-${Date.now()}-${Math.random()}` } });
  expect(app.status, app.text).toBeLessThan(300);
  const key = await call('POST', `/pco/v1/apps/${app.body.app_id}/keys`);
  expect(key.status, key.text).toBe(201);
  const auth = { app_id: app.body.app_id as string, app_key: key.body.app_key as string };
  const upload = (file: Buffer, options?: unknown, filename = 'paper.pdf') => {
    const form = new FormData();
    if (options !== undefined) form.append('options_json', JSON.stringify(options));
    form.append('file', new Blob([file], { type: 'application/pdf' }), filename);
    return call('POST', '/v3/pdf', { headers: auth, form });
  };
  const settled = (pdfId: string, timeoutMs = 60_000) =>
    waitFor(
      async () => {
        const s = await call('GET', `/v3/pdf/${pdfId}`, { headers: auth });
        return ['completed', 'error'].includes(s.body.status) && s.body;
      },
      timeoutMs,
      200,
    );
  return { call, auth, upload, settled };
}

async function documentXml(docx: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-docx-'));
  try {
    await writeFile(join(dir, 'a.docx'), docx);
    return (await run('unzip', ['-p', join(dir, 'a.docx'), 'word/document.xml'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A loopback HTTP server holding one document, for URL submissions. */
async function documentServer(pdf: Buffer): Promise<{ url: string; close(): void }> {
  const server: Server = createServer((req, res) => (req.url === '/paper.pdf' ? res.end(pdf) : res.writeHead(404).end()));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/paper.pdf`, close: () => server.close() };
}

describe('/v3/pdf and /v3/converter against a real appliance', () => {
  let app: ApplianceProcess;
  let v3: Awaited<ReturnType<typeof v3Client>>;
  let docs: Awaited<ReturnType<typeof documentServer>>;

  beforeAll(async () => {
    app = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '1', FOLIO_INFERENCE_WORKERS: '1' });
    v3 = await v3Client(app.url);
    docs = await documentServer(await headingAndParagraphsPdf());
  });
  afterAll(async () => {
    docs?.close();
    await app?.stop();
  });

  it('uploads a born-digital PDF, polls it to completed and downloads mmd, lines.json, docx and html', async () => {
    const res = await v3.upload(await headingAndParagraphsPdf(), { conversion_formats: { docx: true, html: true } });
    expect(res.status, res.text).toBe(200);
    const id = res.body.pdf_id;
    const done = await v3.settled(id);
    expect(done).toMatchObject({ status: 'completed', num_pages: 1, num_pages_completed: 1, percent_done: 100, input_file: 'paper.pdf' });
    const mmd = await v3.call('GET', `/v3/pdf/${id}.mmd`, { headers: v3.auth });
    expect(mmd.status).toBe(200);
    expect(mmd.text).toContain(HEADING_TEXT);
    expect((await v3.call('GET', `/v3/pdf/${id}.lines.json`, { headers: v3.auth })).body.pages).toHaveLength(1);
    const docx = await v3.call('GET', `/v3/pdf/${id}.docx`, { headers: v3.auth });
    expect(await documentXml(docx.buf)).toContain('Introduction');
    expect((await v3.call('GET', `/v3/pdf/${id}.html`, { headers: v3.auth })).text).toContain(HEADING_TEXT);
    const formats = await v3.call('GET', `/v3/converter/${id}`, { headers: v3.auth });
    expect(formats.body.conversion_status).toEqual({ docx: { status: 'completed' }, html: { status: 'completed' } });
    const listed = await v3.call('GET', '/v3/pdf-results', { headers: { app_key: v3.auth.app_key } });
    expect(listed.body.pdfs.map((p: any) => p.id)).toContain(id);
  });

  it('answers format_not_ready while a long document is processed', async () => {
    const res = await v3.upload(await pagedPdf(60));
    const early = await v3.call('GET', `/v3/pdf/${res.body.pdf_id}.mmd`, { headers: v3.auth });
    expect(early.status).toBe(404);
    expect(early.body).toMatchObject({ error: 'format_not_ready', status: expect.stringMatching(/received|loaded|split/) });
    expect((await v3.settled(res.body.pdf_id)).status).toBe('completed');
  });

  it('converts maths MMD to a docx with native Word equations', async () => {
    const mmd = 'Mass and energy: \\(E = mc^2\\).\n\n\\[\n\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}\n\\]\n';
    const res = await v3.call('POST', '/v3/converter', { headers: v3.auth, json: { mmd, formats: { docx: true } } });
    expect(res.status, res.text).toBe(200);
    const id = res.body.conversion_id;
    await waitFor(
      async () => (await v3.call('GET', `/v3/converter/${id}`, { headers: v3.auth })).body.conversion_status.docx.status === 'completed',
      30_000,
      200,
    );
    const docx = await v3.call('GET', `/v3/converter/${id}.docx`, { headers: v3.auth });
    expect(await documentXml(docx.buf)).toContain('<m:oMath');
    const unknown = await v3.call('GET', '/v3/converter/2025_01_01_00000000000000000000', { headers: v3.auth });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ error: 'cnv_unknown_id', error_info: { id: 'cnv_unknown_id', conversion_id: '2025_01_01_00000000000000000000' } });
  });

  it('reads a scanned PDF through the inference pool', async () => {
    const res = await v3.upload(await scannedPdf(await headingAndParagraphsPdf()), undefined, 'scan.pdf');
    const done = await v3.settled(res.body.pdf_id, 150_000);
    expect(done).toMatchObject({ status: 'completed', num_pages_completed: 1 });
    const mmd = (await v3.call('GET', `/v3/pdf/${res.body.pdf_id}.mmd`, { headers: v3.auth })).text;
    expect(mmd).toContain(HEADING_TEXT);
    expect(mmd).toContain(PARAGRAPH_ONE[0]);
  }, 180_000);

  it('refuses unauthenticated calls, bad options and a loopback url (SSRF)', async () => {
    const anon = await v3.call('POST', '/v3/pdf', { json: { url: 'https://example.com/a.pdf' } });
    expect(anon.status).toBe(401);
    expect(anon.body.error).toBe('unauthorized');
    const bad = await v3.call('POST', '/v3/pdf', { headers: v3.auth, json: { url: 'https://example.com/a.pdf', wobble: 1 } });
    expect([bad.status, bad.body.error]).toEqual([400, 'bad_request']);
    const flags = await v3.upload(await headingAndParagraphsPdf(), { auto_number_sections: true, remove_section_numbering: true });
    expect([flags.status, flags.body.error]).toEqual([400, 'opts_section_numbering']);
    const loopback = await v3.call('POST', '/v3/pdf', { headers: v3.auth, json: { url: docs.url } });
    expect([loopback.status, loopback.body.error]).toEqual([400, 'bad_request']);
  });

  it('reports a corrupt PDF as status error, then deletes it for good', async () => {
    const res = await v3.upload(await truncatedPdf(), undefined, 'broken.pdf');
    const done = await v3.settled(res.body.pdf_id);
    expect(done).toMatchObject({
      status: 'error',
      error: expect.any(String),
      error_info: { id: done.error, message: expect.any(String), pdf_id: res.body.pdf_id },
    });
    const del = await v3.call('DELETE', `/v3/pdf/${res.body.pdf_id}`, { headers: v3.auth });
    expect(del.body).toEqual({ pdf_id: res.body.pdf_id, status: 'deleted' });
    expect((await v3.call('GET', `/v3/pdf/${res.body.pdf_id}`, { headers: v3.auth })).status).toBe(404);
  });
});

/** The v1 values of a Service-Signature header, and the one a receiver computes with `secret` (6.2). */
const signedWith = (header: string, _body: string) =>
  header
    .split(',')
    .filter((p) => p.startsWith('v1='))
    .map((p) => p.slice(3));
const hmacOf = (secret: string, header: string, body: string) =>
  createHmac('sha256', secret)
    .update(`${header.split(',')[0]!.slice(2)}.${body}`)
    .digest('hex');

describe('/v3/pdf in lab mode: loopback URLs and webhooks', () => {
  let app: ApplianceProcess;
  let v3: Awaited<ReturnType<typeof v3Client>>;
  let docs: Awaited<ReturnType<typeof documentServer>>;
  let receiver: Awaited<ReturnType<typeof startHttpsReceiver>>;

  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    app = await spawnAppliance({
      FOLIO_DOCUMENT_WORKERS: '1',
      FOLIO_INFERENCE_WORKERS: '0',
      FOLIO_ALLOW_PRIVATE_URLS: 'true',
      NODE_EXTRA_CA_CERTS: receiver.certFile,
    });
    v3 = await v3Client(app.url);
    docs = await documentServer(await headingAndParagraphsPdf());
  });
  afterAll(async () => {
    docs?.close();
    await app?.stop();
    await receiver?.close();
  });

  it('fetches a loopback URL and sends a signed file.completed', async () => {
    const res = await v3.call('POST', '/v3/pdf', {
      headers: v3.auth,
      json: { url: docs.url, callback_url: receiver.url, callback_headers: { 'X-Team': 'docs' } },
    });
    expect(res.status, res.text).toBe(200);
    const id = res.body.pdf_id;
    expect(await v3.settled(id)).toMatchObject({ status: 'completed', input_file: docs.url });
    const got = await waitFor(() => receiver.received.find((r) => JSON.parse(r.body).file_id === id), 30_000, 100);
    expect(JSON.parse(got.body)).toEqual({ event: 'file.completed', file_id: id, status: 'completed', num_pages: 1, num_pages_completed: 1 });
    expect(got.headers['service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(got.headers['x-team']).toBe('docs');
    // 6.2, 4.12: the secret the client can read verifies it; during a rotation both secrets sign.
    const before = (await v3.call('GET', '/files/v1/webhook-config', { headers: { app_key: v3.auth.app_key } })).body.signing_secret;
    expect(signedWith(String(got.headers['service-signature']), got.body)).toEqual([hmacOf(before, String(got.headers['service-signature']), got.body)]);
    const rotated = (await v3.call('POST', '/files/v1/webhook-config/secret', { headers: { app_key: v3.auth.app_key } })).body.signing_secret;
    const second = (await v3.call('POST', '/v3/pdf', { headers: v3.auth, json: { url: docs.url, callback_url: receiver.url } })).body.pdf_id;
    const dual = await waitFor(() => receiver.received.find((r) => JSON.parse(r.body).file_id === second), 60_000, 100);
    const header = String(dual.headers['service-signature']);
    expect(signedWith(header, dual.body)).toEqual([hmacOf(rotated, header, dual.body), hmacOf(before, header, dual.body)]);
  });
});
