import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRACE_MS, initialLicense, licenseKey } from '../../../license/state.js';
import { headingAndParagraphsPdf, truncatedPdf } from '../../../test/support/pdf-fixtures.js';
import { type V3TestApp, v3TestApp } from '../../../test/support/v3-test-app.js';

describe('/v3/pdf errors', () => {
  let t: V3TestApp;
  let key: Awaited<ReturnType<V3TestApp['newKey']>>;
  let pdf: Buffer;

  beforeAll(async () => {
    t = await v3TestApp({ maxUploadBytes: 64 * 1024 });
    key = await t.newKey();
    pdf = await headingAndParagraphsPdf();
  });
  afterAll(async () => t?.close());

  const submit = (json: unknown) => t.call('POST', '/v3/pdf', { headers: key.headers, json });
  const stored = async () =>
    readdir(fileURLToPath(`${t.ctx.storage.rootUri}v3/pdf/`), { recursive: true }).then(
      (f) => f.filter((n) => n.includes('.')),
      () => [],
    );
  const expectError = (res: { status: number; body: any }, status: number, id: string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.error).toBe(id);
    expect(res.body.error_info.id).toBe(id);
  };

  it('answers 401 without app_id + app_key, and for an app token', async () => {
    expectError(await t.call('POST', '/v3/pdf', { json: { url: 'https://a.example.com/x.pdf' } }), 401, 'unauthorized');
    expectError(await t.call('POST', '/v3/pdf', { headers: { app_key: key.app_key }, json: { url: 'https://a.example.com/x.pdf' } }), 401, 'unauthorized');
    expectError(await t.call('GET', '/v3/pdf/2025_06_01_00000000000000000000', { headers: { app_id: key.app_id, app_key: 'nope' } }), 401, 'unauthorized');
    expectError(await t.call('GET', '/v3/pdf-results'), 401, 'unauthorized');
    expectError(await t.call('POST', '/v3/pdf', { headers: { app_token: 'tok' }, json: {} }), 401, 'unauthorized');
  });

  it('refuses unknown options, bad values and several section flags', async () => {
    const unknown = await submit({ url: 'https://a.example.com/x.pdf', shiny: true });
    expectError(unknown, 400, 'bad_request');
    expect(unknown.body.error_info.message).toContain('shiny');
    expectError(await submit({ url: 'https://a.example.com/x.pdf', rm_spaces: 'yes' }), 400, 'bad_request');
    expectError(await submit({ url: 'https://a.example.com/x.pdf', conversion_formats: { odt: true } }), 400, 'bad_request');
    expectError(
      await submit({ url: 'https://a.example.com/x.pdf', auto_number_sections: true, remove_section_numbering: true }),
      400,
      'opts_section_numbering',
    );
    const form = t.form(pdf, 'a.pdf', { preserve_section_numbering: true, auto_number_sections: true });
    expectError(await t.call('POST', '/v3/pdf', { headers: key.headers, form }), 400, 'opts_section_numbering');
    expect(await stored()).toEqual([]); // the upload refused with its options leaves nothing behind
  });

  it('refuses a missing, malformed or internal url', async () => {
    expectError(await submit({}), 400, 'bad_request');
    expectError(await submit({ url: 42 }), 400, 'bad_request');
    expectError(await submit({ url: 'ftp://a.example.com/x.pdf' }), 400, 'bad_request');
    for (const url of [
      'http://127.0.0.1:8080/x.pdf',
      'https://localhost/x.pdf',
      'http://169.254.169.254/latest',
      'http://[::1]/x.pdf',
      'http://10.1.2.3/x.pdf',
    ]) {
      expectError(await submit({ url }), 400, 'bad_request');
    }
    expectError(await t.call('POST', '/v3/pdf', { headers: { ...key.headers, 'content-type': 'application/json' }, body: '{not json' }), 400, 'bad_request');
  });

  it('refuses bad callback parameters and creates nothing', async () => {
    const before = (await t.call('GET', '/v3/pdf-results', { headers: key.headers })).body.pdfs.length;
    for (const extra of [
      { callback_url: 'http://hooks.example.com/x' },
      { callback_url: 'https://hooks.example.com/x', callback_events: ['file.done'] },
      { callback_headers: { 'X-A': '1' } },
      { callback_url: 'https://hooks.example.com/x', callback_headers: { Host: 'x' } },
    ]) {
      expectError(await submit({ url: 'https://a.example.com/x.pdf', ...extra }), 400, 'bad_request');
    }
    expect((await t.call('GET', '/v3/pdf-results', { headers: key.headers })).body.pdfs.length).toBe(before);
  });

  it('stores a valid callback with the single-document default events', async () => {
    const res = await submit({ url: 'https://a.example.com/x.pdf', callback_url: 'https://hooks.example.com/x', callback_headers: { 'X-Team': 'ops' } });
    expect((await t.pdfs.get(res.body.pdf_id))?.callback).toEqual({
      url: 'https://hooks.example.com/x',
      headers: { 'X-Team': 'ops' },
      events: ['file.completed', 'file.error'],
    });
  });

  it('refuses malformed multipart bodies', async () => {
    const noFile = new FormData();
    noFile.append('options_json', '{}');
    expectError(await t.call('POST', '/v3/pdf', { headers: key.headers, form: noFile }), 400, 'bad_request');
    expectError(await t.call('POST', '/v3/pdf', { headers: key.headers, form: t.form(pdf, 'a.pdf', '{oops') }), 400, 'bad_request');
    expectError(
      await t.call('POST', '/v3/pdf', { headers: key.headers, form: t.form(pdf, 'a.pdf', { url: 'https://a.example.com/x.pdf' }) }),
      400,
      'bad_request',
    );
    expectError(await t.call('POST', '/v3/pdf', { headers: { ...key.headers, 'content-type': 'multipart/form-data' }, body: 'x' }), 400, 'bad_request');
    expect(await stored()).toEqual([]);
  });

  it('answers sys_request_too_large past the upload limit and keeps nothing', async () => {
    const big = Buffer.alloc(200 * 1024, 1);
    const res = await t.call('POST', '/v3/pdf', { headers: key.headers, form: t.form(big, 'big.pdf') });
    expectError(res, 413, 'sys_request_too_large');
    expect(await stored()).toEqual([]);
  });

  it('answers format_not_ready with the status before completion, 415 for formats never made', async () => {
    const { body } = await t.call('POST', '/v3/pdf', { headers: key.headers, form: t.form(pdf, 'a.pdf', { conversion_formats: { docx: true } }) });
    const id = body.pdf_id;
    for (const ext of ['mmd', 'lines.json', 'docx']) {
      const res = await t.call('GET', `/v3/pdf/${id}.${ext}`, { headers: key.headers });
      expectError(res, 404, 'format_not_ready');
      expect(res.body).toMatchObject({ status: 'received', percent_done: 0 });
    }
    expectError(await t.call('GET', `/v3/pdf/${id}.html`, { headers: key.headers }), 415, 'unsupported_format');
    expectError(await t.call('GET', `/v3/pdf/${id}.exe`, { headers: key.headers }), 415, 'unsupported_format');
    expect((await t.call('GET', `/v3/pdf/${id}/stream`, { headers: key.headers })).body.error).toBe('bad_request');
  });

  it('reports a corrupt PDF as status error with error_info, in an HTTP 200 body', async () => {
    const { body } = await t.call('POST', '/v3/pdf', { headers: key.headers, form: t.form(await truncatedPdf(), 'broken.pdf') });
    await t.runPdf(body.pdf_id);
    const status = await t.call('GET', `/v3/pdf/${body.pdf_id}`, { headers: key.headers });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      status: 'error',
      error: expect.any(String),
      error_info: { id: expect.any(String), message: expect.any(String), pdf_id: body.pdf_id },
    });
    expect(status.body.error).toBe(status.body.error_info.id);
    expectError(await t.call('GET', `/v3/pdf/${body.pdf_id}.mmd`, { headers: key.headers }), 404, 'format_not_ready');
  });

  it('reports an unparsable page range once processing starts', async () => {
    const { body } = await t.call('POST', '/v3/pdf', { headers: key.headers, form: t.form(pdf, 'a.pdf', { page_ranges: '7-9' }) });
    await t.runPdf(body.pdf_id);
    expect((await t.call('GET', `/v3/pdf/${body.pdf_id}`, { headers: key.headers })).body).toMatchObject({ status: 'error', error: 'opts_bad_page_range' });
  });

  it("answers 404 for unknown ids and 403 for another group's document", async () => {
    expectError(await t.call('GET', '/v3/pdf/2025_06_01_00000000000000000000', { headers: key.headers }), 404, 'not_found');
    expectError(await t.call('GET', '/v3/pdf/..%2f..%2fetc', { headers: key.headers }), 404, 'not_found');
    const { body } = await submit({ url: 'https://a.example.com/x.pdf' });
    const stranger = await t.newKey(undefined, 'other-group');
    expectError(await t.call('GET', `/v3/pdf/${body.pdf_id}`, { headers: stranger.headers }), 403, 'forbidden');
    expectError(await t.call('DELETE', `/v3/pdf/${body.pdf_id}`, { headers: stranger.headers }), 403, 'forbidden');
  });

  it('answers bad_request for malformed listing parameters', async () => {
    expectError(await t.call('GET', '/v3/pdf-results?page=0', { headers: key.headers }), 400, 'bad_request');
    expectError(await t.call('GET', '/v3/pdf-results?page=10001', { headers: key.headers }), 400, 'bad_request');
    expectError(await t.call('GET', '/v3/pdf-results?from_date=yesterday', { headers: key.headers }), 400, 'bad_request');
  });

  it('refuses submissions with 503 license_unverified once the licence is blocked; status still works', async () => {
    const gated = await v3TestApp({ env: { FOLIO_LICENSE_MODE: 'online', FOLIO_DEPLOYMENT_ID: 'dep-1' } });
    try {
      const k = await gated.newKey();
      const ok = await gated.call('POST', '/v3/pdf', { headers: k.headers, json: { url: 'https://a.example.com/x.pdf' } });
      expect(ok.status).toBe(200);
      const now = gated.ctx.now();
      const rec = { ...initialLicense('online', 'dep-1', now), last_verified_at: new Date(now).toISOString(), consecutive_failures: 1 };
      await gated.ctx.redis.set(licenseKey(gated.ctx.config.FOLIO_QUEUE_PREFIX), JSON.stringify(rec));
      gated.advance(GRACE_MS);
      expectError(await gated.call('POST', '/v3/pdf', { headers: k.headers, json: { url: 'https://a.example.com/x.pdf' } }), 503, 'license_unverified');
      expect((await gated.call('GET', `/v3/pdf/${ok.body.pdf_id}`, { headers: k.headers })).status).toBe(200);
    } finally {
      await gated.close();
    }
  });
});
