import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moleculePng } from '../support/chemistry-images.js';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { chemistryPaperPdf, PAPER_STRUCTURES } from '../support/chemistry-fixtures.js';
import { waitFor } from '../support/ports.js';

const run = promisify(execFile);

/** Every `<smiles>` element and figure image of an MMD, in order. */
const items = (mmd: string) =>
  [...mmd.matchAll(/<smiles( [^>]*)?>([^<]*)<\/smiles>|!\[[^\]]*\]\([^)]*\)/g)].map((m) =>
    m[0].startsWith('<') ? { smiles: m[2], attrs: m[1] ?? '' } : 'figure',
  );

describe('chemistry through a real appliance (OSRA and Open Babel as programs)', () => {
  let app: ApplianceProcess;
  let auth: { app_id: string; app_key: string };
  const call = async (method: string, path: string, init: { json?: unknown; form?: FormData } = {}) => {
    const res = await fetch(`${app.url}${path}`, {
      method,
      headers: { ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}), ...(path.startsWith('/pco') ? {} : auth) },
      body: init.form ?? (init.json !== undefined ? JSON.stringify(init.json) : undefined),
    });
    const buf = Buffer.from(await res.arrayBuffer());
    let body: any = null;
    try {
      body = JSON.parse(buf.toString('utf8'));
    } catch {
      // a download
    }
    return { status: res.status, body, buf, text: buf.toString('utf8') };
  };

  beforeAll(async () => {
    // Two CPU seconds per OSRA run: the crafted figure needs about 16 here, each molecule under one.
    app = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '1', FOLIO_INFERENCE_WORKERS: '1', FOLIO_OSRA_CPU_SECONDS: '2' }, { startTimeoutMs: 110_000 });
    const made = await call('POST', '/pco/v1/apps', { json: { name: `chem-${Date.now()}` } });
    const key = await call('POST', `/pco/v1/apps/${made.body.app_id}/keys`);
    expect(key.status, key.text).toBe(201);
    auth = { app_id: made.body.app_id, app_key: key.body.app_key };
  }, 150_000);
  afterAll(async () => {
    await app?.stop();
  });

  it('POST /v3/text reads a drawn molecule as <smiles> only when include_smiles is true, with InChI on request, and history finds it', async () => {
    const src = `data:image/png;base64,${(await moleculePng(PAPER_STRUCTURES[1].smiles)).toString('base64')}`;
    const plain = await call('POST', '/v3/text', { json: { src } });
    // Without include_smiles the drawing is read as whatever text it shows (or refused as math_confidence): never as a structure.
    expect(plain.status, plain.text).toBe(200);
    expect(plain.text).not.toContain('<smiles');
    const read = await call('POST', '/v3/text', { json: { src, include_smiles: true, include_inchi: true, include_line_data: true } });
    expect(read.status, read.text).toBe(200);
    expect(items(read.body.text)).toEqual([
      { smiles: PAPER_STRUCTURES[1].smiles, attrs: expect.stringContaining(`inchikey="${PAPER_STRUCTURES[1].inchikey}"`) },
    ]);
    expect(read.body.text).toContain('inchi="InChI=1S/C8H10N4O2/');
    expect(read.body.line_data).toContainEqual(expect.objectContaining({ type: 'chemistry' }));
    expect(read.body.latex_styled).toBeUndefined();
    const history = await call('GET', '/v3/ocr-results?contains_chemistry=true');
    expect(history.body.ocr_results.map((r: any) => r.result.request_id)).toEqual([read.body.request_id]);
    expect(history.body.ocr_results[0].detections.contains_chemistry).toBe(true);
  }, 120_000);

  it('POST /v3/pdf writes three structures in place with their InChI, keeps the plot, the triangle and a figure OSRA was stopped on as figures, and carries structures into docx', async () => {
    const pdf = await chemistryPaperPdf({ hostile: true });
    const form = new FormData();
    form.append('options_json', JSON.stringify({ include_inchi: true, conversion_formats: { docx: true } }));
    form.append('file', new Blob([await readFile(pdf.path)], { type: 'application/pdf' }), 'paper.pdf');
    await pdf.cleanup();
    const sent = await call('POST', '/v3/pdf', { form });
    expect(sent.status, sent.text).toBe(200);
    const id = sent.body.pdf_id;
    const done = await waitFor(
      async () => {
        const s = await call('GET', `/v3/pdf/${id}`);
        return ['completed', 'error'].includes(s.body.status) && s.body;
      },
      240_000,
      500,
    );
    expect(done).toMatchObject({ status: 'completed', num_pages_completed: done.num_pages });
    const mmd = (await call('GET', `/v3/pdf/${id}.mmd`)).text;
    const [aspirin, caffeine, salicylic] = PAPER_STRUCTURES.map((s) => ({ smiles: s.smiles, attrs: expect.stringContaining(`inchikey="${s.inchikey}"`) }));
    // Aspirin, the plot, caffeine; then the crafted figure, the triangle, salicylic acid.
    expect(items(mmd)).toEqual([aspirin, 'figure', caffeine, 'figure', 'figure', salicylic]);
    expect(mmd).toContain('inchi="InChI=1S/C9H8O4/');
    const docx = await call('GET', `/v3/pdf/${id}.docx`);
    expect(docx.status).toBe(200);
    const dir = await mkdtemp(join(tmpdir(), 'folio-chem-docx-'));
    try {
      await writeFile(join(dir, 'a.docx'), docx.buf);
      const xml = (await run('unzip', ['-p', join(dir, 'a.docx'), 'word/document.xml'], { maxBuffer: 64 * 1024 * 1024 })).stdout;
      for (const s of PAPER_STRUCTURES) expect(xml).toContain(s.smiles);
      const media = (await run('unzip', ['-l', join(dir, 'a.docx')])).stdout.split('\n').filter((l) => l.includes('word/media/'));
      expect(media.length).toBeGreaterThanOrEqual(6); // three crops kept as figures, three drawings of the structures
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
