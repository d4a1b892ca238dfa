import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../../core/storage/s3.js';
import { DRAWING_CAPTION, DRAWING_SIZE_PT, RASTER_CAPTION, RASTER_SIZE_PT, type FigurePaper, figurePaperPdf } from '../support/figure-fixtures.js';
import { FIGURE_DPI, linkedFigures } from '../../page/figure-links.js';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { waitFor } from '../support/ports.js';
import { type TestS3, startS3rver } from '../support/s3rver.js';
import { scannedPdf } from '../support/scanned-fixtures.js';

// Figures end to end: cropped by the document worker, served by the appliance's /cdn route,
// carried into tex.zip, md.zip and docx, and written to a bucket by the Files API's local mode.

const PX_PER_PT = FIGURE_DPI / 72;
const scratch = mkdtempSync(join(tmpdir(), 'folio-figures-it-'));

function zipMembers(zip: Buffer): string[] {
  writeFileSync(join(scratch, 'a.zip'), zip);
  return execFileSync('unzip', ['-Z1', join(scratch, 'a.zip')])
    .toString()
    .trim()
    .split('\n');
}

describe('figures through a real appliance', () => {
  let app: ApplianceProcess;
  let s3: TestS3;
  let bucket: S3Storage;
  let paper: FigurePaper;
  let pdf: Buffer;
  let headers: Record<string, string>;
  const get = async (path: string, h: Record<string, string> = headers) => {
    const res = await fetch(`${app.url}${path}`, { headers: h });
    return { status: res.status, headers: res.headers, buf: Buffer.from(await res.arrayBuffer()) };
  };
  const json = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${app.url}${path}`, {
      method,
      headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const upload = async (file: Buffer, options: unknown) => {
    const form = new FormData();
    form.append('options_json', JSON.stringify(options));
    form.append('file', new Blob([file], { type: 'application/pdf' }), 'paper.pdf');
    const res = await fetch(`${app.url}/v3/pdf`, { method: 'POST', headers, body: form });
    return ((await res.json()) as { pdf_id: string }).pdf_id;
  };
  const settled = (path: string, timeoutMs: number) =>
    waitFor(
      async () => {
        const s = await json('GET', path);
        return ['completed', 'error'].includes(s.body.status) && s.body;
      },
      timeoutMs,
      250,
    );
  /** The /cdn path of a crop URL: the appliance links by FOLIO_PUBLIC_URL, the test reaches it on its own port. */
  const cdnPath = (mmd: string, name: string) => new URL(/\((http[^)\s]+)\)/.exec(mmd.slice(mmd.indexOf(`${name}.jpg`) - 200))![1]!).pathname;

  beforeAll(async () => {
    [s3, paper] = await Promise.all([startS3rver(), figurePaperPdf()]);
    pdf = readFileSync(paper.path);
    await s3.createBucket('papers');
    bucket = new S3Storage({ bucket: 'papers', endpoint: s3.endpoint, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });
    await bucket.write('in/paper.pdf', pdf, 'application/pdf');
    app = await spawnAppliance({
      FOLIO_DOCUMENT_WORKERS: '1',
      FOLIO_INFERENCE_WORKERS: '1',
      FOLIO_ALLOW_PRIVATE_URLS: 'true',
      FOLIO_DATA_SOURCE_KEY: randomBytes(32).toString('hex'),
      FOLIO_FILES_JOB_COMPLETED_DELAY_SECONDS: '0',
    });
    const made: any = await (
      await fetch(`${app.url}/pco/v1/apps`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `figs-${Date.now()}` }),
      })
    ).json();
    const key: any = await (await fetch(`${app.url}/pco/v1/apps/${made.app_id}/keys`, { method: 'POST' })).json();
    headers = { app_id: made.app_id, app_key: key.app_key };
  }, 90_000);
  afterAll(async () => {
    await app?.stop();
    await s3?.stop();
    await paper?.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('links both figures once, serves their crops at their size, and carries them into tex.zip, md.zip and docx', async () => {
    const id = await upload(pdf, { conversion_formats: { 'tex.zip': true, 'md.zip': true, docx: true } });
    expect(await settled(`/v3/pdf/${id}`, 60_000)).toMatchObject({ status: 'completed' });
    const mmd = (await get(`/v3/pdf/${id}.mmd`)).buf.toString();
    const names = linkedFigures(mmd);
    expect(names).toEqual([`${id}-1-1`, `${id}-2-1`]);
    expect(mmd).toContain(`/cdn/cropped/${id}-1-1.jpg?height=`);
    expect(mmd).toContain(RASTER_CAPTION);
    expect(mmd).toContain(DRAWING_CAPTION);

    const sizes = [RASTER_SIZE_PT, DRAWING_SIZE_PT];
    for (const [i, name] of names.entries()) {
      const crop = await get(cdnPath(mmd, name), {}); // no credentials
      expect(crop.status).toBe(200);
      expect(crop.headers.get('content-type')).toBe('image/jpeg');
      const { width, height } = await sharp(crop.buf).metadata();
      expect(Math.abs(width! - sizes[i]!.width * PX_PER_PT)).toBeLessThan(0.1 * sizes[i]!.width * PX_PER_PT);
      expect(Math.abs(height! - sizes[i]!.height * PX_PER_PT)).toBeLessThan(0.1 * sizes[i]!.height * PX_PER_PT);
    }
    for (const ext of ['tex.zip', 'md.zip'])
      expect(zipMembers((await get(`/v3/pdf/${id}.${ext}`)).buf)).toEqual(expect.arrayContaining(names.map((n) => `images/${n}.jpg`)));
    expect(zipMembers((await get(`/v3/pdf/${id}.docx`)).buf).filter((m) => m.startsWith('word/media/'))).toHaveLength(2);

    expect((await json('DELETE', `/v3/pdf/${id}`)).status).toBe(200);
    expect((await get(cdnPath(mmd, names[0]!), {})).status).toBe(404);
  }, 90_000);

  it('writes crops to <destination_uri>/images/ with relative links in image_output_mode local', async () => {
    const source = await json('POST', '/files/v1/data-sources', {
      name: 'papers',
      provider: 'aws',
      auth_method: 'access_key',
      bucket: 'papers',
      region: 'us-east-1',
      endpoint: s3.endpoint.replace('127.0.0.1', 'localhost'),
      provider_specific_details: { access_key_id: s3.accessKeyId },
      secret: s3.secretAccessKey,
    });
    expect(source.status).toBe(200);
    const res = await json('POST', '/files/v1/uri', {
      source_uri: 's3://papers/in/paper.pdf',
      destination_uri: 's3://papers/out/',
      destination_basename: 'paper',
      image_output_mode: 'local',
    });
    expect(await settled(`/files/v1/${res.body.file_id}`, 60_000)).toMatchObject({ status: 'completed' });
    const mmd = (await bucket.readBuffer('out/paper.mmd')).toString();
    const names = linkedFigures(mmd);
    expect(names).toHaveLength(2);
    for (const name of names) {
      expect(mmd).toContain(`![](images/${name}.jpg)`);
      expect((await sharp(await bucket.readBuffer(`out/images/${name}.jpg`)).metadata()).format).toBe('jpeg');
    }
    const lines = JSON.parse((await bucket.readBuffer('out/paper.lines.mmd.json')).toString());
    for (const l of lines.pages.flatMap((p: any) => p.lines)) expect(mmd.slice(l.mmd_start, l.mmd_end)).toBe(l.text);
  }, 90_000);

  it('finds the figures of the scanned copy read through the inference pool', async () => {
    const id = await upload(await scannedPdf(pdf), {});
    expect(await settled(`/v3/pdf/${id}`, 150_000)).toMatchObject({ status: 'completed', num_pages_completed: 2 });
    const mmd = (await get(`/v3/pdf/${id}.mmd`)).buf.toString();
    expect(linkedFigures(mmd)).toEqual([`${id}-1-1`, `${id}-2-1`]);
  }, 180_000);
});
