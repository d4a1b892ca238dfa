import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { pcoClient } from '../support/pco-client.js';
import { HEADING_TEXT, headingAndParagraphsPdf } from '../support/pdf-fixtures.js';

// The Folio extensions GET …/files/{document_id}/outputs/{ext} and …/files/{document_id}/source:
// a real appliance and document worker, a job over a file:// folder, then its outputs read back over HTTP.
describe('pco file content routes', () => {
  let app: ApplianceProcess;
  let root: string;
  let pco: ReturnType<typeof pcoClient>;
  let jobId: string;
  let docId: string;
  let base: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-pco-content-'));
    const input = join(root, 'in');
    await mkdir(join(input, 'sub'), { recursive: true });
    await writeFile(join(input, 'sub', 'intro.pdf'), await headingAndParagraphsPdf());
    app = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '1', FOLIO_INFERENCE_WORKERS: '1' });
    pco = pcoClient(app.url);
    const created = await pco.create({ name: 'file content', input: { folder: `file://${input}/` } });
    expect(created.status).toBe(201);
    jobId = created.body.job_id;
    expect((await pco.settled(jobId)).status).toBe('completed');
    const files = await pco.call('GET', `/pco/v1/jobs/${jobId}/files`);
    expect(files.body.files).toHaveLength(1);
    docId = files.body.files[0].document_id;
    base = `${app.url}/pco/v1/jobs/${jobId}/files/${docId}`;
  });
  afterAll(async () => {
    await app?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('streams the MMD output with its type and an inline filename', async () => {
    const res = await fetch(`${base}/outputs/mmd`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="intro.mmd"');
    expect(await res.text()).toContain(HEADING_TEXT);
  });

  it('streams lines.json as JSON', async () => {
    const res = await fetch(`${base}/outputs/lines.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="intro.lines.json"');
    const body = JSON.parse(await res.text());
    expect(typeof body).toBe('object');
    expect(body).not.toBeNull();
  });

  it('streams the source PDF', async () => {
    const res = await fetch(`${base}/source`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="intro.pdf"');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(bytes.equals(await readFile(join(root, 'in', 'sub', 'intro.pdf')))).toBe(true);
  });

  it('answers 404 not_found for an extension the file has no output for', async () => {
    for (const ext of ['docx', 'nope', 'lines.mmd.json']) {
      const res = await pco.call('GET', `/pco/v1/jobs/${jobId}/files/${docId}/outputs/${ext}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('not_found');
    }
  });

  it('answers 404 for an unknown document and an unknown job', async () => {
    const doc = await pco.call('GET', `/pco/v1/jobs/${jobId}/files/no-such-document/outputs/mmd`);
    expect(doc.status).toBe(404);
    expect(doc.body.error).toBe('not_found');
    const src = await pco.call('GET', `/pco/v1/jobs/${jobId}/files/no-such-document/source`);
    expect(src.status).toBe(404);
    const job = await pco.call('GET', `/pco/v1/jobs/job_0000000000000000/files/${docId}/source`);
    expect(job.status).toBe(404);
  });
});
