import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { documentServer, filesClient } from '../support/files-client.js';
import { HEADING_TEXT, headingAndParagraphsPdf, pagedPdf } from '../support/pdf-fixtures.js';

// The Files API as the hosted service's own client (mpxpy) calls and parses it: conversion_formats
// with mmd, latex and page images; formats mapped to status strings; a job that completes without
// finalize; the older route names; upstream failures named by whether a retry helps.

const scratch = mkdtempSync(join(tmpdir(), 'folio-files-compat-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** One member of a zip archive, read with Debian's unzip. */
function unzipMember(zip: Buffer, member: string): string {
  const path = join(scratch, 'a.zip');
  writeFileSync(path, zip);
  return execFileSync('unzip', ['-p', path, member]).toString();
}

describe('Files API conformance with the hosted service client', () => {
  let app: ApplianceProcess;
  let docs: Awaited<ReturnType<typeof documentServer>>;

  beforeAll(async () => {
    docs = await documentServer({ '/paper.pdf': await headingAndParagraphsPdf(), '/two.pdf': await pagedPdf(2) });
    app = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '1', FOLIO_INFERENCE_WORKERS: '0', FOLIO_ALLOW_PRIVATE_URLS: 'true' });
  });
  afterAll(async () => {
    await app?.stop();
    docs?.close();
  });

  it('takes mmd, latex, jpg, png and xlsx in conversion_formats, reports each format as a status string and serves .tex, .jpg, .png', async () => {
    const c = await filesClient(app.url);
    const formats = { mmd: true, latex: true, jpg: true, png: true, xlsx: true };
    const res = await c.api('POST', '/files/v1/uri', { json: { source_uri: docs.url('/two.pdf'), conversion_formats: formats } });
    expect(res.status, res.text).toBe(200);
    const done = await c.settled(res.body.file_id, 120_000);
    expect(done.status).toBe('completed');
    // The client compares formats[<format>] with the string "completed".
    expect(done.formats).toEqual({ mmd: 'completed', latex: 'completed', jpg: 'completed', png: 'completed', xlsx: 'completed' });
    const id = res.body.file_id as string;

    const tex = await c.api('GET', `/files/v1/${id}.tex`);
    expect([tex.status, tex.headers.get('content-disposition')]).toEqual([200, `attachment; filename="${id}.tex"`]);
    expect(tex.text).toContain('\\documentclass');
    expect(tex.text).toContain('\\end{document}');
    for (const [ext, format] of [
      ['jpg', 'jpeg'],
      ['png', 'png'],
    ] as const) {
      const image = await c.api('GET', `/files/v1/${id}.${ext}`);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe(`image/${format}`);
      const meta = await sharp(image.bytes).metadata();
      expect(meta.format).toBe(format);
      // Two pages, one under the other: taller than twice as wide.
      expect(meta.height!).toBeGreaterThan(2 * meta.width!);
    }
    // A document without tables still gets a workbook a spreadsheet program opens.
    const xlsx = await c.api('GET', `/files/v1/${id}.xlsx`);
    expect(xlsx.status).toBe(200);
    expect(unzipMember(xlsx.bytes, 'xl/workbook.xml')).toContain('<sheet ');
    // mmd was asked for and is the primary output.
    expect((await c.api('GET', `/files/v1/${id}.mmd`)).status).toBe(200);
    // A format not requested is 415, as before.
    expect((await c.api('GET', `/files/v1/${id}.html`)).status).toBe(415);
  });

  it('completes a job when its files are done although it was never finalized; finalization is its own field', async () => {
    const c = await filesClient(app.url);
    const jobId = `compat-${Date.now()}`;
    const files = [
      { source_uri: docs.url('/paper.pdf'), custom_id: 'good' },
      { source_uri: docs.url('/missing.pdf'), custom_id: 'bad' },
    ];
    const sub = await c.api('POST', '/files/v1/jobs', { json: { job_id: jobId, files, conversion_formats: { md: true } } });
    expect(sub.status, sub.text).toBe(200);
    const first = await c.api('GET', `/files/v1/jobs/${jobId}`);
    expect(first.body.finalized).toBe(false);
    const done = await waitForJob(c, jobId);
    expect(done).toMatchObject({ job_id: jobId, status: 'completed', finalized: false, file_count: 2, files_completed: 1, files_errored: 1 });
    const errored = await c.api('GET', `/files/v1/jobs/${jobId}/files?status=error`);
    expect(errored.body.files.map((f: { custom_id: string }) => f.custom_id)).toEqual(['bad']);
    // A source that answers 404 is not_found at once: no retry can bring it back.
    const bad = await c.api('GET', `/files/v1/jobs/${jobId}/files/bad`);
    expect(bad.body).toMatchObject({ status: 'error', error: 'not_found', error_info: { id: 'not_found' } });
    const good = await c.api('GET', `/files/v1/jobs/${jobId}/files/good`);
    expect(good.body.formats).toEqual({ md: 'completed' });

    const fin = await c.api('POST', `/files/v1/jobs/${jobId}/finalize`);
    expect(fin.body).toMatchObject({ status: 'completed', finalized: true });
    expect((await c.api('POST', '/files/v1/jobs', { json: { job_id: jobId, files } })).body.error).toBe('job_finalized');
    // The client's listing parameters: limit and paging_state, start and end as whole days.
    const today = new Date().toISOString().slice(0, 10);
    const listed = await c.api('GET', `/files/v1/jobs?limit=1&start=${today}&end=${today}`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.jobs).toHaveLength(1);
    expect((await c.api('GET', '/files/v1/jobs?start=2000-01-01&end=2000-01-02')).body.jobs).toEqual([]);
    expect((await c.api('GET', '/files/v1/jobs?limit=0')).status).toBe(400);
  });

  it('names each upstream failure of a source by whether a retry can help', async () => {
    const c = await filesClient(app.url);
    const cases: [number, string][] = [
      [410, 'not_found'],
      [403, 'data_source_access_denied'],
      [400, 'pdf_download_error'],
    ];
    for (const [code, id] of cases) {
      const res = await c.api('POST', '/files/v1/uri', { json: { source_uri: docs.url(`/status/${code}/doc.pdf`) } });
      expect(res.status, res.text).toBe(200);
      const end = await c.settled(res.body.file_id);
      expect([code, end.status, end.error], String(code)).toEqual([code, 'error', id]);
    }
  });

  it('answers the older route names: a multipart upload with scs_job_id, /files/v1/list, /files/v1/scs-jobs and its status', async () => {
    const c = await filesClient(app.url);
    const jobId = `scs-${Date.now()}`;
    const upload = async (filename: string) => {
      const form = new FormData();
      form.append('options_json', JSON.stringify({ conversion_formats: { mmd: true } }));
      form.append('scs_job_id', jobId);
      form.append('filename', filename);
      form.append('file', new Blob([await headingAndParagraphsPdf()], { type: 'application/pdf' }), 'upload.pdf');
      const res = await c.api('POST', '/files/v1', { form });
      expect(res.status, res.text).toBe(200);
      return res.body.file_id as string;
    };
    const ids = [await upload('one.pdf'), await upload('two.pdf'), await upload('one.pdf')];
    const settled = await c.settled(ids[0]!);
    expect(settled).toMatchObject({ filename: 'one.pdf', job_id: jobId });
    expect((await c.api('GET', `/files/v1/${ids[0]}.mmd`)).text).toContain(HEADING_TEXT);

    const byJob = await c.api('GET', `/files/v1/list?scs_job_id=${jobId}&limit=2`);
    expect(byJob.body.file_ids).toEqual(ids.slice(0, 2));
    const rest = await c.api('GET', `/files/v1/list?scs_job_id=${jobId}&limit=2&paging_state=${byJob.body.next_page_token}`);
    expect(rest.body).toEqual({ file_ids: [ids[2]], next_page_token: null });
    const byName = await c.api('GET', `/files/v1/list?scs_job_id=${jobId}&filename=one.pdf`);
    expect(byName.body.file_ids).toEqual([ids[0], ids[2]]);
    const other = await filesClient(app.url, 'another-group');
    expect((await other.api('GET', `/files/v1/list?filename=one.pdf`)).body.file_ids).toEqual([]);

    const status = await c.api('GET', `/files/v1/scs-jobs/status?scs_job_id=${jobId}`);
    expect(status.body).toMatchObject({ scs_job_id: jobId, job_id: jobId, file_count: 3, finalized: false });
    expect((await c.api('GET', '/files/v1/scs-jobs/status?scs_job_id=no-such-job')).status).toBe(404);
    expect((await c.api('GET', '/files/v1/scs-jobs/status')).status).toBe(400);
    const today = new Date().toISOString().slice(0, 10);
    const jobs = await c.api('GET', `/files/v1/scs-jobs?start=${today}&end=${today}&limit=10`);
    expect(jobs.status, jobs.text).toBe(200);
    const entry = jobs.body.jobs.find((j: { scs_job_id: string }) => j.scs_job_id === jobId);
    expect(entry.created_at.slice(0, 10)).toBe(today);
    expect(jobs.body).toHaveProperty('paging_state', null);
  });
});

async function waitForJob(c: Awaited<ReturnType<typeof filesClient>>, jobId: string, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const s = await c.api('GET', `/files/v1/jobs/${jobId}`);
    if (s.body.status === 'completed' || Date.now() > until) return s.body;
    await new Promise((r) => setTimeout(r, 250));
  }
}
