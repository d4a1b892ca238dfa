import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { startHttpsReceiver } from '../support/https-receiver.js';
import { documentServer, filesClient } from '../support/files-client.js';
import { HEADING_TEXT, headingAndParagraphsPdf, pagedPdf } from '../support/pdf-fixtures.js';
import { waitFor } from '../support/ports.js';

const FILE_LIMIT = 6;
const PAGE_LIMIT = 3;

describe('Files API documents and jobs against a real appliance', () => {
  let app: ApplianceProcess;
  let docs: Awaited<ReturnType<typeof documentServer>>;
  let receiver: Awaited<ReturnType<typeof startHttpsReceiver>>;

  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    docs = await documentServer({ '/paper.pdf': await headingAndParagraphsPdf(), '/three.pdf': await pagedPdf(3) });
    app = await spawnAppliance({
      FOLIO_DOCUMENT_WORKERS: '1',
      FOLIO_INFERENCE_WORKERS: '0',
      FOLIO_ALLOW_PRIVATE_URLS: 'true',
      NODE_EXTRA_CA_CERTS: receiver.certFile,
      FOLIO_FILES_JOB_COMPLETED_DELAY_SECONDS: '2',
      FOLIO_FILE_MONTHLY_LIMIT: String(FILE_LIMIT),
      FOLIO_PAGE_MONTHLY_LIMIT: String(PAGE_LIMIT),
    });
  });
  afterAll(async () => {
    await app?.stop();
    docs?.close();
    await receiver?.close();
  });

  it('processes a URI submission, serves its outputs and sends file.completed', async () => {
    const c = await filesClient(app.url);
    const res = await c.api('POST', '/files/v1/uri', { json: { source_uri: docs.url('/paper.pdf'), filename: 'paper.pdf', callback_url: receiver.url } });
    expect(res.status, res.text).toBe(200);
    const fileId = res.body.file_id as string;
    const early = await c.api('GET', `/files/v1/${fileId}`);
    expect(['pending', 'split', 'completed']).toContain(early.body.status);
    const done = await c.settled(fileId);
    expect(done).toMatchObject({
      file_id: fileId,
      status: 'completed',
      percent_done: 100,
      num_pages: 1,
      num_pages_completed: 1,
      format_primary: 'mmd',
      filename: 'paper.pdf',
      custom_id: null,
      destination_uri: null,
      destination_basename: null,
    });

    // GET /v3/pdf-results lists the app's /v3/pdf submissions only; the Files API lists its own.
    const v3 = await c.api('POST', '/v3/pdf', { headers: { app_id: c.appId }, json: { url: docs.url('/v3-only.pdf') } });
    expect(v3.status, v3.text).toBe(200);
    const listed = await c.api('GET', '/v3/pdf-results');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.pdfs.map((p: { id: string }) => p.id)).toEqual([v3.body.pdf_id]);

    const mmd = await c.api('GET', `/files/v1/${fileId}.mmd`);
    expect(mmd.status).toBe(200);
    expect(mmd.text).toContain(HEADING_TEXT);
    expect(mmd.headers.get('content-type')).toContain('text/markdown');
    expect(mmd.headers.get('content-disposition')).toBe(`attachment; filename="${fileId}.mmd"`);
    const lines = await c.api('GET', `/files/v1/${fileId}.lines.json`);
    expect(lines.status).toBe(200);
    expect(lines.headers.get('content-type')).toContain('application/json');
    expect((await c.api('GET', `/files/v1/${fileId}.docx`)).body.error).toBe('unsupported_format');
    expect((await c.api('GET', `/files/v1/${fileId}.exe`)).status).toBe(415);

    const note = await waitFor(() => receiver.received.find((r) => JSON.parse(r.body).file_id === fileId), 30_000, 100);
    expect(JSON.parse(note.body)).toEqual({ event: 'file.completed', file_id: fileId, status: 'completed', num_pages: 1, num_pages_completed: 1 });
    expect(note.headers['service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('takes a multipart upload, answers format_not_ready, and deletes by the 3.1 rules', async () => {
    const c = await filesClient(app.url);
    const form = new FormData();
    form.append('options_json', JSON.stringify({ conversion_formats: { md: true } }));
    form.append('file', new Blob([await headingAndParagraphsPdf()], { type: 'application/pdf' }), 'upload.pdf');
    const res = await c.api('POST', '/files/v1', { form });
    expect(res.status, res.text).toBe(200);
    const fileId = res.body.file_id as string;
    const notReady = await c.api('GET', `/files/v1/${fileId}.md`);
    if (notReady.status === 404) {
      expect(notReady.body).toMatchObject({ error: 'format_not_ready', error_info: { id: 'format_not_ready' }, file_id: fileId });
      expect(['pending', 'split']).toContain(notReady.body.status);
      expect((await c.api('DELETE', `/files/v1/${fileId}`)).body.error).toBe('conflict');
    }
    const done = await c.settled(fileId);
    expect(done.filename).toBe('upload.pdf');
    expect(done.formats).toEqual({ md: 'completed' });
    expect((await c.api('GET', `/files/v1/${fileId}.md`)).text).toContain(HEADING_TEXT);

    const other = await filesClient(app.url, 'another-group');
    expect((await other.api('GET', `/files/v1/${fileId}`)).body.error).toBe('forbidden');
    expect((await other.api('DELETE', `/files/v1/${fileId}`)).status).toBe(403);

    const del = await c.api('DELETE', `/files/v1/${fileId}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ file_id: fileId, status: 'deleted' });
    expect((await c.api('DELETE', `/files/v1/${fileId}`)).body).toEqual({ file_id: fileId, status: 'deleted' });
    expect((await c.api('GET', `/files/v1/${fileId}`)).body.error).toBe('not_found');
    expect((await c.api('GET', `/files/v1/${fileId}.mmd`)).status).toBe(404);
    expect((await c.api('GET', '/files/v1/2020_01_01_00000000000000000000')).status).toBe(404);
  });

  it('refuses bad single submissions as whole requests', async () => {
    const c = await filesClient(app.url);
    const bad = async (json: unknown, headers?: Record<string, string>) => (await c.api('POST', '/files/v1/uri', { json, headers })).body.error;
    expect(await bad({ source_uri: 'ftp://example.com/a.pdf' })).toBe('bad_request');
    expect(await bad({ source_uri: docs.url('/paper.pdf'), custom_id: 'x' })).toBe('bad_request');
    expect(await bad({ source_uri: docs.url('/paper.pdf'), image_output_mode: 'local' })).toBe('bad_request');
    expect(await bad({ source_uri: docs.url('/paper.pdf'), callback_events: ['file.error'] })).toBe('bad_request');
    expect(await bad({ source_uri: docs.url('/paper.pdf') }, { 'Idempotency-Key': 'no spaces' })).toBe('bad_request');
    expect(await bad({ source_uri: docs.url('/paper.pdf'), destination_uri: `s3://bucket/${'k/'.repeat(520)}` })).toBe('destination_uri_too_long');
    expect((await c.api('GET', '/files/v1/jobs', { headers: { app_key: 'nope_0' } })).status).toBe(401);
  });

  it('accepts a job with per-item errors, keeps (job_id, custom_id) idempotent, finalizes and sends job.completed once', async () => {
    const c = await filesClient(app.url);
    const jobId = `it-job-${Date.now()}`;
    const files = [
      { source_uri: docs.url('/paper.pdf'), custom_id: 'good', filename: 'good.pdf' },
      { source_uri: 'ftp://example.com/x.pdf', custom_id: 'bad-scheme' },
      { source_uri: docs.url('/paper.pdf'), custom_id: 'good' },
      { custom_id: 'no-source' },
    ];
    const sub = await c.api('POST', '/files/v1/jobs', { json: { job_id: jobId, files, callback_url: receiver.url } });
    expect(sub.status, sub.text).toBe(200);
    expect(sub.body).toEqual({ job_id: jobId, file_count: 4 });
    const good = await c.api('GET', `/files/v1/jobs/${jobId}/files/good`);
    expect(good.body.custom_id).toBe('good');

    const again = await c.api('POST', '/files/v1/jobs', { json: { job_id: jobId, files: [{ source_uri: docs.url('/paper.pdf'), custom_id: 'good' }] } });
    expect(again.body).toEqual({ job_id: jobId, file_count: 1 });
    expect((await c.api('GET', `/files/v1/jobs/${jobId}/files/good`)).body.file_id).toBe(good.body.file_id);
    const status = await c.api('GET', `/files/v1/jobs/${jobId}`);
    expect(status.body).toMatchObject({ job_id: jobId, finalized: false, file_count: 4, files_errored: 3 });

    const errors = await c.api('GET', `/files/v1/jobs/${jobId}/files?status=error&page_size=2`);
    expect(errors.body.files).toHaveLength(2);
    expect(errors.body.files.every((f: { status: string }) => f.status === 'error')).toBe(true);
    const rest = await c.api('GET', `/files/v1/jobs/${jobId}/files?status=error&page_size=2&page_token=${errors.body.next_page_token}`);
    expect(rest.body).toMatchObject({ next_page_token: null });
    expect(rest.body.files).toHaveLength(1);
    const noSource = (await c.api('GET', `/files/v1/jobs/${jobId}/files/no-source`)).body;
    expect(noSource).toMatchObject({ status: 'error', error: 'bad_request' });

    const other = await filesClient(app.url);
    expect((await other.api('POST', '/files/v1/jobs', { json: { job_id: jobId, files } })).status).toBe(403);

    await c.settled(good.body.file_id);
    await new Promise((r) => setTimeout(r, 3000)); // past the completion delay: an open job never completes
    expect(receiver.received.filter((r) => JSON.parse(r.body).job_id === jobId && JSON.parse(r.body).event === 'job.completed')).toHaveLength(0);

    const fin = await c.api('POST', `/files/v1/jobs/${jobId}/finalize`);
    expect(fin.body).toMatchObject({ job_id: jobId, finalized: true });
    expect((await c.api('POST', '/files/v1/jobs', { json: { job_id: jobId, files } })).body.error).toBe('job_finalized');
    const note = await waitFor(
      () => receiver.received.find((r) => JSON.parse(r.body).job_id === jobId && JSON.parse(r.body).event === 'job.completed'),
      30_000,
      100,
    );
    expect(JSON.parse(note.body)).toEqual({
      event: 'job.completed',
      job_id: jobId,
      status: 'completed',
      file_count: 4,
      files_completed: 1,
      files_errored: 3,
      num_pages_sent: 1,
      num_pages_completed: 1,
    });
    // Batch defaults: no per-document events for the job's files.
    expect(receiver.received.some((r) => JSON.parse(r.body).file_id === good.body.file_id)).toBe(false);
    await new Promise((r) => setTimeout(r, 4000));
    expect(receiver.received.filter((r) => JSON.parse(r.body).job_id === jobId)).toHaveLength(1);
    expect((await c.api('GET', `/files/v1/jobs/${jobId}`)).body.status).toBe('completed');
    const list = await c.api('GET', `/files/v1/jobs?from_date=2000-01-01&page_size=5`);
    expect(list.body.jobs.map((j: { job_id: string }) => j.job_id)).toContain(jobId);
  });

  it('makes two identical requests racing with one Idempotency-Key one job, enqueued once', async () => {
    const c = await filesClient(app.url);
    const headers = { 'Idempotency-Key': `race-${Date.now()}` };
    const json = { files: [{ source_uri: docs.url('/missing-1.pdf') }, { source_uri: docs.url('/missing-2.pdf') }] };
    const [a, b] = await Promise.all([c.api('POST', '/files/v1/jobs', { json, headers }), c.api('POST', '/files/v1/jobs', { json, headers })]);
    expect(a.status, a.text).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(a.body.file_count).toBe(2);
    const job = await c.api('GET', `/files/v1/jobs/${a.body.job_id}`);
    expect(job.body.file_count).toBe(2);
    const listed = await c.api('GET', `/files/v1/jobs/${a.body.job_id}/files`);
    expect(listed.body.files).toHaveLength(2);

    const single = { source_uri: docs.url('/missing-3.pdf') };
    const [x, y] = await Promise.all([c.api('POST', '/files/v1/uri', { json: single, headers }), c.api('POST', '/files/v1/uri', { json: single, headers })]);
    expect(x.body.file_id).toBeTruthy();
    expect(y.body.file_id).toBe(x.body.file_id);
    // An errored file is no idempotency hit (spec 3.2): once it failed, the same key makes a new file.
    const failed = await c.settled(x.body.file_id);
    expect(failed).toMatchObject({ status: 'error', error: 'not_found', error_info: { id: 'not_found' } });
    const noMmd = await c.api('GET', `/files/v1/${x.body.file_id}.mmd`);
    expect(noMmd).toMatchObject({ status: 404, body: { error: 'format_not_ready', status: 'error' } });
    const retry = await c.api('POST', '/files/v1/uri', { json: single, headers });
    expect(retry.body.file_id).not.toBe(x.body.file_id);
  });

  it('refuses past the monthly file and page quotas with quota_exceeded', async () => {
    const files = await filesClient(app.url);
    const items = Array.from({ length: FILE_LIMIT }, (_, i) => ({ source_uri: docs.url(`/gone-${i}.pdf`) }));
    expect((await files.api('POST', '/files/v1/jobs', { json: { files: items } })).status).toBe(200);
    const over = await files.api('POST', '/files/v1/uri', { json: { source_uri: docs.url('/paper.pdf') } });
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ error: 'quota_exceeded', error_info: { limit_name: 'file_monthly_limit', limit_value: FILE_LIMIT, count: FILE_LIMIT } });
    // The limits are shared with /v3/pdf, which answers http_max_requests.
    const v3 = await files.api('POST', '/v3/pdf', { headers: { app_id: files.appId }, json: { url: docs.url('/paper.pdf') } });
    expect(v3).toMatchObject({
      status: 429,
      body: { error: 'http_max_requests', error_info: { limit_name: 'file_monthly_limit', limit_value: FILE_LIMIT, count: FILE_LIMIT } },
    });

    const pages = await filesClient(app.url);
    const three = await pages.api('POST', '/files/v1/uri', { json: { source_uri: docs.url('/three.pdf') } });
    expect((await pages.settled(three.body.file_id)).num_pages_completed).toBe(PAGE_LIMIT);
    // Pages are counted before the file shows completed, so the very next submission is refused.
    const refused = await pages.api('POST', '/files/v1/uri', { json: { source_uri: docs.url('/paper.pdf') } });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      error: 'quota_exceeded',
      error_info: { limit_name: 'page_monthly_limit', limit_value: PAGE_LIMIT, count: PAGE_LIMIT },
    });
  });
});
