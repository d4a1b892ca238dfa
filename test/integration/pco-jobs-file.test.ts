import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { HEADING_TEXT, PARAGRAPH_ONE, headingAndParagraphsPdf, pagedPdf, truncatedPdf } from '../support/pdf-fixtures.js';
import { scannedPdf } from '../support/scanned-fixtures.js';
import { docxFile } from '../support/office-fixtures.js';
import { pcoClient, sumOfFive } from '../support/pco-client.js';
import { waitFor } from '../support/ports.js';
import { startHttpsReceiver } from '../support/https-receiver.js';
import { createHmac } from 'node:crypto';

/** An independent verifier of the t=…,v1=… HMAC-SHA256 scheme (spec 6.2), as a receiver writes it. */
function verifySignature(header: string, body: string, secret: string): boolean {
  const parts = header.split(',').map((p) => p.split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return parts.some(([k, v]) => k === 'v1' && v === expected) && Math.abs(Date.now() / 1000 - Number(t)) < 300;
}

// Private-cloud jobs end to end over file:// folders: a real appliance, its private Redis and a
// real document worker process.
describe('pco jobs over file:// folders', () => {
  let app: ApplianceProcess;
  let root: string;
  let input: string;
  let pco: ReturnType<typeof pcoClient>;
  let receiver: Awaited<ReturnType<typeof startHttpsReceiver>>;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-pco-'));
    input = join(root, 'in');
    await mkdir(join(input, 'sub'), { recursive: true });
    await writeFile(join(input, 'a.pdf'), await headingAndParagraphsPdf());
    await writeFile(join(input, 'sub', 'b.pdf'), await pagedPdf(3));
    await writeFile(join(input, 'bad.pdf'), await truncatedPdf());
    await writeFile(join(input, 'notes.txt'), 'not a document');
    await writeFile(join(input, 'skip-me.pdf'), await pagedPdf(1));
    receiver = await startHttpsReceiver();
    // Lab mode lets callbacks reach the loopback receiver; NODE_EXTRA_CA_CERTS trusts its certificate.
    app = await spawnAppliance({
      FOLIO_DOCUMENT_WORKERS: '1',
      FOLIO_INFERENCE_WORKERS: '1',
      FOLIO_ALLOW_PRIVATE_URLS: 'true',
      NODE_EXTRA_CA_CERTS: receiver.certFile,
    });
    pco = pcoClient(app.url);
  });
  afterAll(async () => {
    await app?.stop();
    await receiver?.close();
    await rm(root, { recursive: true, force: true });
  });

  const folder = () => `file://${input}/`;

  it('runs a job alongside the sources: counters, outputs, failure id, report, retry', async () => {
    const body = { name: 'papers', input: { folder: folder(), exclude: ['skip-*'] }, options: { extra_outputs: ['.lines.mmd.json'] } };
    const first = await pco.create(body);
    expect(first.status).toBe(201);
    const again = await pco.create(body);
    expect(again.status).toBe(200);
    expect(again.body.job_id).toBe(first.body.job_id);
    // The job's spec echo (input.files: null, callback: null, …) posts back as the same job.
    const echo = (await pco.call('GET', `/pco/v1/jobs/${first.body.job_id}`)).body.spec;
    expect(echo.input.files).toBeNull();
    const reposted = await pco.create(echo);
    expect([reposted.status, reposted.body.job_id]).toEqual([200, first.body.job_id]);
    const jobId = first.body.job_id as string;

    const done = await pco.settled(jobId);
    expect(done.status).toBe('completed_with_failures');
    expect(done.enumeration).toEqual({ status: 'completed', files_listed: 5, files_excluded: 2 });
    expect(done.files).toMatchObject({ discovered: 3, completed: 2, failed: 1, queued: 0, processing: 0, skipped: 0 });
    expect(done.files.discovered).toBe(sumOfFive(done.files));
    expect(done.pages).toEqual({ completed: 4, failed: 0 });
    expect(done.output.manifest_uri).toMatch(/_folio\/job_[0-9a-f]+\/manifest\.jsonl$/);
    expect(done.finished_at).not.toBeNull();

    const mmd = await readFile(join(input, 'a.mmd'), 'utf8');
    expect(mmd).toContain(HEADING_TEXT);
    expect(existsSync(join(input, 'a.lines.json'))).toBe(true);
    expect(existsSync(join(input, 'a.lines.mmd.json'))).toBe(true);
    expect(existsSync(join(input, 'sub', 'b.mmd'))).toBe(true);
    expect(existsSync(join(input, 'skip-me.mmd'))).toBe(false);

    const failed = await pco.call('GET', `/pco/v1/jobs/${jobId}/files?status=failed`);
    expect(failed.body.files).toHaveLength(1);
    expect(failed.body.files[0]).toMatchObject({ key: expect.stringMatching(/bad\.pdf$/), status: 'failed', error_id: 'pdf_content_type', attempts: 1 });
    const one = await pco.call('GET', `/pco/v1/jobs/${jobId}/files/${failed.body.files[0].document_id}`);
    expect(one.body).toHaveProperty('page_errors');
    expect(one.body.versions).toHaveProperty('ocr_version');

    const report = await pco.call('GET', `/pco/v1/jobs/${jobId}/report`);
    expect(report.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = report.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.status).sort()).toEqual(['completed', 'completed', 'failed']);
    // A read, not a drain.
    expect((await pco.call('GET', `/pco/v1/jobs/${jobId}/report?status=failed`)).text.trim().split('\n')).toHaveLength(1);
    const manifest = (await readFile(new URL(done.output.manifest_uri), 'utf8')).trim().split('\n');
    expect(manifest).toHaveLength(3);

    // Replace the corrupt file, retry only what failed.
    await writeFile(join(input, 'bad.pdf'), await pagedPdf(2));
    // Retries sent together: one requeues, the others find the job processing (3.8: 409).
    const tries = await Promise.all([0, 1, 2].map(() => pco.call('POST', `/pco/v1/jobs/${jobId}/retry`, { error_ids: ['pdf_content_type'] })));
    const retried = tries.find((r) => r.status === 200)!;
    expect(tries.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(tries.filter((r) => r.status === 409).every((r) => r.body.error === 'job_not_retryable')).toBe(true);
    expect(retried.body.requeued).toBe(1);
    expect((await pco.call('POST', `/pco/v1/jobs/${jobId}/retry`)).status).toBe(409);
    const after = await pco.settled(jobId);
    expect(after.status).toBe('completed');
    expect(after.files).toMatchObject({ discovered: 3, completed: 3, failed: 0 });
    expect(after.pages).toEqual({ completed: 6, failed: 0 });
    expect(existsSync(join(input, 'bad.mmd'))).toBe(true);
    // The appliance keeps pages completed per minute (the console's throughput chart).
    const history = await pco.call('GET', '/pco/v1/throughput?minutes=15');
    expect(history.body.minutes).toHaveLength(15);
    expect(history.body.minutes.reduce((n: number, m: any) => n + m.pages_completed, 0)).toBe(6);
    expect((await pco.call('GET', '/pco/v1/throughput?minutes=0')).body.error).toBe('bad_request');
    const notRetryable = await pco.call('POST', `/pco/v1/jobs/${jobId}/retry`);
    expect(notRetryable.status).toBe(409);
    expect(notRetryable.body.error).toBe('job_not_retryable');
  });

  it('writes mirror and flat layouts under another folder, and skips existing outputs', async () => {
    const out = join(root, 'out-mirror');
    await mkdir(out);
    const mirror = await pco.create({
      input: { folder: folder(), include: ['*.pdf'], exclude: ['bad.pdf', 'skip-*'] },
      output: { folder: `file://${out}/`, layout: 'mirror' },
    });
    expect(mirror.status).toBe(201);
    expect((await pco.settled(mirror.body.job_id)).status).toBe('completed');
    expect(existsSync(join(out, 'sub', 'b.mmd'))).toBe(true);
    expect(existsSync(join(out, 'a.mmd'))).toBe(true);

    const flatDir = join(root, 'out-flat');
    await mkdir(flatDir);
    const flat = await pco.create({ input: { folder: folder(), exclude: ['bad.pdf', 'skip-*'] }, output: { folder: `file://${flatDir}/`, layout: 'flat' } });
    expect((await pco.settled(flat.body.job_id)).status).toBe('completed');
    expect(existsSync(join(flatDir, 'sub__b.mmd'))).toBe(true);

    // Same folder again under another client_reference: outputs exist, so every file is skipped.
    const rerun = await pco.create({
      input: { folder: folder(), exclude: ['bad.pdf', 'skip-*'] },
      output: { folder: `file://${flatDir}/`, layout: 'flat' },
      client_reference: 'second',
    });
    expect(rerun.body.job_id).not.toBe(flat.body.job_id);
    const skipped = await pco.settled(rerun.body.job_id);
    expect(skipped.status).toBe('completed');
    expect(skipped.files).toMatchObject({ discovered: 2, skipped: 2, completed: 0 });

    const dry = await pco.create({ input: { folder: folder() }, output: { folder: `file://${flatDir}/`, layout: 'flat' } }, '?dry_run=true');
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dry_run: true, files: { discovered: 4, excluded: 1, by_type: { pdf: 4 } }, pages: { files_sampled: 4 } });
    expect(dry.body.files.already_processed).toBe(2);
    expect(dry.body.pages.estimated_total).toBeGreaterThan(0);
    expect(dry.body.deployment).toHaveProperty('gpu_workers');
  });

  it('cancels: queued files become skipped (cancelled), in-flight ones finish', async () => {
    const many = join(root, 'many');
    await mkdir(many);
    const pdf = await pagedPdf(2);
    for (let i = 0; i < 80; i++) await writeFile(join(many, `doc-${String(i).padStart(2, '0')}.pdf`), pdf);
    const created = await pco.create({ input: { folder: `file://${many}/` } });
    // Cancel once enumeration has queued files and the worker has one in flight.
    await waitFor(
      async () => {
        const j = (await pco.job(created.body.job_id)).body;
        return j.files.queued > 10 && j.files.processing > 0;
      },
      20_000,
      20,
    );
    const cancelled = await pco.call('POST', `/pco/v1/jobs/${created.body.job_id}/cancel`);
    expect(cancelled.status).toBe(200);
    // The answer is the cancelled job, though files in flight still finish (3.8).
    expect(cancelled.body.status).toBe('cancelled');
    const job = await pco.settled(created.body.job_id);
    expect(job.status).toBe('cancelled');
    expect(job.files.skipped).toBeGreaterThan(0);
    expect(job.files.completed).toBeGreaterThan(0);
    expect(job.files.queued + job.files.processing).toBe(0);
    expect(job.files.discovered).toBe(sumOfFive(job.files));
    const skipped = await pco.call('GET', `/pco/v1/jobs/${created.body.job_id}/files?status=skipped&limit=1`);
    expect(skipped.body.files[0].error_id).toBe('cancelled');
    expect(skipped.body.next_cursor).not.toBeNull();
    const page2 = await pco.call('GET', `/pco/v1/jobs/${created.body.job_id}/files?status=skipped&limit=1&cursor=${skipped.body.next_cursor}`);
    expect(page2.body.files[0].document_id).not.toBe(skipped.body.files[0].document_id);
    // Cancel of a terminal job returns it as is; retry of a cancelled job is refused.
    expect((await pco.call('POST', `/pco/v1/jobs/${created.body.job_id}/cancel`)).body.status).toBe('cancelled');
    expect((await pco.call('POST', `/pco/v1/jobs/${created.body.job_id}/retry`)).status).toBe(409);

    const list = await pco.call('GET', '/pco/v1/jobs?status=cancelled&limit=5');
    expect(list.body.jobs.map((j: any) => j.job_id)).toContain(created.body.job_id);
    expect(list.body.jobs[0]).not.toHaveProperty('spec');

    expect((await pco.call('DELETE', `/pco/v1/jobs/${created.body.job_id}`)).status).toBe(204);
    const gone = await pco.job(created.body.job_id);
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('job_not_found');
  });

  it('sends signed job.completed and file.error notifications to an HTTPS receiver', async () => {
    const secret = (await pco.call('GET', '/pco/v1/webhook-config')).body.secret as string;
    expect(secret).toMatch(/^whsec_[0-9a-f]+$/);
    const hooksIn = join(root, 'hooks-in');
    await mkdir(hooksIn);
    await writeFile(join(hooksIn, 'good.pdf'), await pagedPdf(1));
    await writeFile(join(hooksIn, 'corrupt.pdf'), await truncatedPdf());
    const created = await pco.create({
      input: { folder: `file://${hooksIn}/` },
      output: { folder: `file://${root}/hooked/`, layout: 'mirror' },
      callback_url: receiver.url,
      callback_events: ['job.completed', 'file.error'],
      callback_headers: { 'X-Tenant': 'acme' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const done = await pco.settled(created.body.job_id);
    expect(done.spec.callback.headers).toEqual({ 'X-Tenant': '[redacted]' });
    const events = await waitFor(() => receiver.received.length >= 2 && receiver.received.map((r) => JSON.parse(r.body)), 20_000);
    expect(events).toHaveLength(2);
    const job = events.find((e: any) => e.event === 'job.completed');
    expect(job).toEqual({
      event: 'job.completed',
      job_id: created.body.job_id,
      status: done.status,
      file_count: done.files.discovered,
      files_completed: done.files.completed,
      files_errored: done.files.failed,
      num_pages_sent: done.pages.completed + done.pages.failed,
      num_pages_completed: done.pages.completed,
    });
    const fileError = events.find((e: any) => e.event === 'file.error');
    expect(fileError).toMatchObject({ job_id: created.body.job_id, status: 'failed', custom_id: null, error_info: { id: 'pdf_content_type' } });
    expect(events.filter((e: any) => e.event === 'file.completed')).toHaveLength(0);
    for (const r of receiver.received) {
      expect(verifySignature(String(r.headers['service-signature']), r.body, secret)).toBe(true);
      expect(r.headers['x-tenant']).toBe('acme');
    }
    const deliveries = (await pco.call('GET', `/pco/v1/deliveries?job_id=${created.body.job_id}`)).body.deliveries;
    expect(deliveries.length).toBe(events.length);
    expect(deliveries.every((d: any) => d.status === 'delivered' && d.attempts === 1 && d.last_http_status === 200)).toBe(true);
  });

  it('converts a DOCX, reads a scanned PDF through the inference pool, writes requested formats', async () => {
    const office = join(root, 'office');
    await mkdir(office);
    await writeFile(join(office, 'report.docx'), await docxFile('Quarterly Findings', 'Revenue grew in every region this quarter.'));
    await writeFile(join(office, 'scan.pdf'), await scannedPdf(await headingAndParagraphsPdf()));
    const created = await pco.create({
      input: { folder: `file://${office}/` },
      options: { conversion_formats: { docx: true, html: true, 'latex.pdf': true } },
      policy: { per_page_timeout_seconds: 120 },
    });
    const done = await pco.settled(created.body.job_id, 150_000);
    expect(done.files).toMatchObject({ discovered: 2, completed: 2, failed: 0 });
    expect(await readFile(join(office, 'report.mmd'), 'utf8')).toContain('Quarterly Findings');
    // The source is never overwritten: the DOCX conversion of report.docx lands as report.folio.docx.
    expect((await readFile(join(office, 'report.docx'))).equals(await readFile(join(office, 'report.folio.docx')))).toBe(false);
    expect(await readFile(join(office, 'report.html'), 'utf8')).toContain('Revenue grew');
    const files = (await pco.call('GET', `/pco/v1/jobs/${created.body.job_id}/files`)).body.files;
    const report = files.find((f: any) => f.key.endsWith('report.docx'));
    const detail = (await pco.call('GET', `/pco/v1/jobs/${created.body.job_id}/files/${report.document_id}`)).body;
    expect(detail.conversion_status).toEqual({ docx: { status: 'completed' }, html: { status: 'completed' }, 'latex.pdf': { status: 'completed' } });
    expect(detail.outputs.docx).toMatch(/report\.folio\.docx$/);
    expect(detail.outputs['latex.pdf']).toMatch(/report\.latex\.pdf$/);
    // The scanned page has no text layer: its text comes from OCR on an inference worker.
    const scanned = await readFile(join(office, 'scan.mmd'), 'utf8');
    expect(scanned).toContain(HEADING_TEXT);
    expect(scanned).toContain(PARAGRAPH_ONE[0]);
  }, 180_000);

  it('refuses bad submissions with the submission-time ids', async () => {
    const cases: [unknown, string][] = [
      [{}, 'input_folder_required'],
      [{ input: { folder: folder(), files: [`${folder()}a.pdf`] } }, 'input_folder_or_files'],
      [{ input: { files: [] }, output: { folder: folder() } }, 'input_folder_or_files'],
      [{ input: { folder: 'ftp://host/x/' } }, 'unsupported_uri_scheme'],
      [{ input: { folder: folder() }, output: { layout: 'sideways' } }, 'invalid_layout'],
      [{ input: { folder: folder() }, output: { folder: `file://${root}/elsewhere/`, layout: 'alongside' } }, 'invalid_layout'],
      [{ input: { folder: folder() }, policy: { priority: 'urgent' } }, 'invalid_policy'],
      [{ input: { folder: folder() }, policy: { max_retries: -1 } }, 'invalid_policy'],
      [{ input: { folder: folder() }, options: { ocr: { no_such_option: true } } }, 'invalid_options'],
      [{ input: { folder: folder() }, options: { ocr: { alphabets_allowed: { klingon: false } } } }, 'invalid_options'],
      [{ input: { folder: folder() }, options: { ocr: { auto_number_sections: true, remove_section_numbering: true } } }, 'opts_section_numbering'],
      [{ input: { folder: folder() }, options: { conversion_formats: { exe: true } } }, 'invalid_options'],
      [{ input: { folder: `file://${root}/does-not-exist/` } }, 'input_folder_unreadable'],
      [{ input: { folder: folder() }, output: { folder: `file://${input}/a.pdf/`, layout: 'mirror' } }, 'output_folder_unwritable'],
      [{ input: { folder: folder() }, callback_events: ['job.completed'] }, 'invalid_callback'],
      [{ input: { folder: folder() }, callback_url: 'https://x.test/h', callback_events: ['job.done'] }, 'invalid_callback'],
      [{ input: { folder: folder() }, callback_url: 'https://x.test/h', callback_headers: { Host: 'evil' } }, 'invalid_callback'],
      ['{"input":', 'bad_request'],
    ];
    for (const [body, id] of cases) {
      const res = await pco.create(body);
      expect(res.body?.error, JSON.stringify(body)).toBe(id);
      expect(res.body.error_info.id).toBe(id);
      expect(res.status).toBe(400);
    }
  });
});
