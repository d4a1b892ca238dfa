import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type V3TestApp, v3TestApp } from '../../../test/support/v3-test-app.js';

const run = promisify(execFile);
const MATHS_MMD = '# Energy\n\nMass and energy: \\(E = mc^2\\).\n\n\\[\n\\int_0^1 x^2 \\, dx = \\frac{1}{3}\n\\]\n';

/** word/document.xml of a .docx, read with Debian's unzip. */
async function documentXml(docx: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-docx-'));
  try {
    await writeFile(join(dir, 'a.docx'), docx);
    return (await run('unzip', ['-p', join(dir, 'a.docx'), 'word/document.xml'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('/v3/converter', () => {
  let t: V3TestApp;
  let key: Awaited<ReturnType<V3TestApp['newKey']>>;

  beforeAll(async () => {
    t = await v3TestApp();
    key = await t.newKey();
  });
  afterAll(async () => t?.close());

  const convert = (json: unknown, headers: Record<string, string> = key.headers) => t.call('POST', '/v3/converter', { headers, json });

  it('converts MMD to docx with native Word maths, html and tex.zip', async () => {
    const res = await convert({ mmd: MATHS_MMD, formats: { docx: true, html: true, 'tex.zip': true }, conversion_options: { docx: {} } });
    expect(res.status).toBe(200);
    const id = res.body.conversion_id as string;
    expect(await t.waiting('v3-conversions')).toContainEqual({ id: `v3cnv-${id}`, name: 'v3-convert', data: { conversionId: id } });
    const before = await t.call('GET', `/v3/converter/${id}`, { headers: key.headers });
    expect(before.body).toEqual({
      status: 'completed',
      version: expect.any(String),
      conversion_status: { docx: { status: 'received' }, html: { status: 'received' }, 'tex.zip': { status: 'received' } },
    });
    const notReady = await t.call('GET', `/v3/converter/${id}.docx`, { headers: key.headers });
    expect(notReady.status).toBe(404);
    expect(notReady.body.error).toBe('format_not_ready');

    expect(await t.runConversion(id)).toBe('done');
    const after = await t.call('GET', `/v3/converter/${id}`, { headers: key.headers });
    expect(after.body.conversion_status).toEqual({ docx: { status: 'completed' }, html: { status: 'completed' }, 'tex.zip': { status: 'completed' } });
    const docx = await t.call('GET', `/v3/converter/${id}.docx`, { headers: key.headers });
    expect(docx.headers.get('content-type')).toContain('wordprocessingml');
    expect(await documentXml(docx.buf)).toContain('<m:oMath');
    const html = await t.call('GET', `/v3/converter/${id}.html`, { headers: key.headers });
    expect(html.text).toContain('<math');
    expect((await t.call('GET', `/v3/converter/${id}.tex.zip`, { headers: key.headers })).buf.subarray(0, 2).toString()).toBe('PK');
    expect((await t.call('GET', `/v3/converter/${id}.mmd`, { headers: key.headers })).text).toBe(MATHS_MMD);
    expect((await t.call('GET', `/v3/converter/${id}.md`, { headers: key.headers })).text).toBe(MATHS_MMD);
    const unrequested = await t.call('GET', `/v3/converter/${id}.pptx`, { headers: key.headers });
    expect(unrequested.status).toBe(415);
    expect(unrequested.body.error).toBe('unsupported_format');
  });

  it('reports formats this build cannot make as error and refuses their download with 415', async () => {
    const { body } = await convert({ mmd: '# A', formats: { 'mmd.overlay.pdf': true } });
    await t.runConversion(body.conversion_id);
    const status = await t.call('GET', `/v3/converter/${body.conversion_id}`, { headers: key.headers });
    expect(status.body.conversion_status['mmd.overlay.pdf']).toEqual({
      status: 'error',
      error_id: 'unsupported_format',
      error_message: expect.stringContaining('mmd.overlay.pdf'),
    });
    expect((await t.call('GET', `/v3/converter/${body.conversion_id}.mmd.overlay.pdf`, { headers: key.headers })).status).toBe(415);
  });

  it('answers cnv_unknown_id with HTTP 200 for an unknown id', async () => {
    for (const id of ['2025_06_01_00000000000000000000', 'nonsense']) {
      const res = await t.call('GET', `/v3/converter/${id}`, { headers: key.headers });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ error: 'cnv_unknown_id', error_info: { id: 'cnv_unknown_id', message: expect.any(String), conversion_id: id } });
    }
    expect((await t.call('GET', '/v3/converter/2025_06_01_00000000000000000000.docx', { headers: key.headers })).status).toBe(404);
  });

  it('deletes a conversion, answering the status object as it was', async () => {
    const { body } = await convert({ mmd: '# A', formats: { html: true } });
    await t.runConversion(body.conversion_id);
    const del = await t.call('DELETE', `/v3/converter/${body.conversion_id}`, { headers: key.headers });
    expect(del.body).toEqual({ status: 'completed', version: expect.any(String), conversion_status: { html: { status: 'completed' } } });
    expect((await t.call('GET', `/v3/converter/${body.conversion_id}`, { headers: key.headers })).body.error).toBe('cnv_unknown_id');
    expect((await t.call('GET', `/v3/converter/${body.conversion_id}.html`, { headers: key.headers })).status).toBe(404);
    expect((await t.call('DELETE', `/v3/converter/${body.conversion_id}`, { headers: key.headers })).body.error).toBe('cnv_unknown_id');
  });

  it('lists the conversion history at GET /v3/converter-results, newest first, paged, by app and dates', async () => {
    const other = await t.newKey('historian');
    const ids: string[] = [];
    for (const mmd of ['# One', '# Two']) {
      t.advance(60_000);
      ids.push((await convert({ mmd, formats: { html: true } }, other.headers)).body.conversion_id);
    }
    await t.runConversion(ids[1]!);
    const all = await t.call('GET', '/v3/converter-results', { headers: { app_key: other.app_key } });
    expect(all.status).toBe(200);
    expect(all.body.documents.map((d: any) => d.id)).toEqual([...ids].reverse());
    expect(all.body.documents[0]).toMatchObject({
      id: ids[1],
      status: 'completed',
      created_at: expect.any(String),
      modified_at: expect.any(String),
      conversion_status: { html: { status: 'completed' } },
      request_args: { formats: { html: true } },
    });
    const page2 = await t.call('GET', '/v3/converter-results?page=2&per_page=1', { headers: { app_key: other.app_key } });
    expect(page2.body.documents.map((d: any) => d.id)).toEqual([ids[0]]);
    const created = all.body.documents[1].created_at;
    const ranged = await t.call('GET', `/v3/converter-results?from_date=${created}&to_date=${created}`, { headers: { app_key: other.app_key } });
    expect(ranged.body.documents.map((d: any) => d.id)).toEqual([ids[0]]);
    // Another app of the group by app_id; another group's app never; an unknown filter is 400.
    expect((await t.call('GET', `/v3/converter-results?app_id=${other.app_id}`, { headers: { app_key: key.app_key } })).body.documents).toHaveLength(2);
    expect((await t.call('GET', '/v3/converter-results', { headers: { app_key: key.app_key } })).body.documents.some((d: any) => ids.includes(d.id))).toBe(
      false,
    );
    const stranger = await t.newKey('far', 'elsewhere');
    expect((await t.call('GET', `/v3/converter-results?app_id=${other.app_id}`, { headers: { app_key: stranger.app_key } })).body.documents).toEqual([]);
    expect((await t.call('GET', '/v3/converter-results?status=completed', { headers: { app_key: other.app_key } })).status).toBe(400);
    await t.call('DELETE', `/v3/converter/${ids[1]}`, { headers: other.headers });
    expect((await t.call('GET', '/v3/converter-results', { headers: { app_key: other.app_key } })).body.documents.map((d: any) => d.id)).toEqual([ids[0]]);
  });

  it('refuses bad bodies, missing credentials and another group', async () => {
    for (const json of [
      {},
      { mmd: 1, formats: {} },
      { mmd: '#', formats: { odt: true } },
      { mmd: '#', formats: {}, colour: 'red' },
      { mmd: '#', formats: {}, conversion_options: { odt: {} } },
    ]) {
      const res = await convert(json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.error).toBe('bad_request');
    }
    expect((await convert({ mmd: '#', formats: {} }, { app_key: key.app_key })).status).toBe(401);
    const big = await convert({ mmd: 'x'.repeat(10 * 1024 * 1024 + 1), formats: {} });
    expect(big.status).toBe(413);
    expect(big.body.error).toBe('sys_request_too_large');
    const { body } = await convert({ mmd: '# A', formats: {} });
    const stranger = await t.newKey(undefined, 'elsewhere');
    expect((await t.call('GET', `/v3/converter/${body.conversion_id}`, { headers: stranger.headers })).status).toBe(403);
  });
});
