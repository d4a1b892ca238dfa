import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at } from '../support/pen-strokes.js';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { handwrittenLinePng } from '../support/ink-fixtures.js';
import { HEADING_TEXT, PARAGRAPH_ONE, headingAndParagraphsPdf } from '../support/pdf-fixtures.js';

const run = promisify(execFile);
const DPI = 150;

/** The fixture page rendered by pdftoppm at `dpi`. */
async function renderPage(dpi: number): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-text-'));
  try {
    await writeFile(join(dir, 'in.pdf'), await headingAndParagraphsPdf());
    await run('pdftoppm', ['-r', String(dpi), '-png', '-singlefile', join(dir, 'in.pdf'), join(dir, 'page')]);
    return await readFile(join(dir, 'page.png'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const dataUrl = (b: Buffer) => `data:image/png;base64,${b.toString('base64')}`;

describe('POST /v3/text against a real appliance', () => {
  let app: ApplianceProcess;
  let auth: { app_id: string; app_key: string };
  let paragraph: Buffer; // heading + first paragraph, cropped from the page
  let fullPage: Buffer;
  let loopback: Server;

  const call = async (path: string, init: { headers?: Record<string, string>; json?: unknown; form?: FormData } = {}) => {
    const res = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
      body: init.form ?? (init.json !== undefined ? JSON.stringify(init.json) : undefined),
    });
    const text = await res.text();
    let body: any = null;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body, text };
  };
  const text = (json: unknown, headers: Record<string, string> = auth) => call('/v3/text', { headers, json });

  beforeAll(async () => {
    app = await spawnAppliance({ FOLIO_TEXT_REQUESTS_MAX: '1', FOLIO_INFERENCE_WORKERS: '1' });
    const made = await call('/pco/v1/apps', { json: { name: `text-${Date.now()}` } });
    expect(made.status, made.text).toBeLessThan(300);
    const key = await call(`/pco/v1/apps/${made.body.app_id}/keys`);
    expect(key.status, key.text).toBe(201);
    auth = { app_id: made.body.app_id, app_key: key.body.app_key };
    const page = await renderPage(DPI);
    // Heading at 92 pt from the top, first paragraph's three lines below it: keep 60–200 pt.
    const px = (pt: number) => Math.round((pt * DPI) / 72);
    paragraph = await sharp(page)
      .extract({ left: 0, top: px(60), width: px(612), height: px(140) })
      .png()
      .toBuffer();
    fullPage = await renderPage(300);
    loopback = createServer((_req, res) => res.end(paragraph));
    await new Promise<void>((r) => loopback.listen(0, '127.0.0.1', r));
    // The first recognition loads nothing new, but warms the worker before the timed requests.
    await text({ src: dataUrl(paragraph) });
  }, 120_000);
  afterAll(async () => {
    loopback?.close();
    await app?.stop();
  });

  it('reads a rendered paragraph sent as a data URL', async () => {
    const times: number[] = [];
    let r!: Awaited<ReturnType<typeof text>>;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      r = await text({ src: dataUrl(paragraph), include_line_data: true });
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(`/v3/text one paragraph: median ${Math.round(times[2]!)} ms (${times.map(Math.round).join(', ')})`);
    expect(r.status, r.text).toBe(200);
    // The heading, set larger than the paragraph under it, is a heading as on the born-digital page.
    const [heading, body] = (r.body.text as string).split('\n\n');
    expect(heading).toMatch(new RegExp(`^#{1,2} ${HEADING_TEXT}$`));
    const lines = body!.split('\n');
    expect(lines[0]).toBe(PARAGRAPH_ONE[0]);
    expect(r.body.confidence).toBeGreaterThan(0);
    expect(r.body.confidence).toBeLessThanOrEqual(1);
    expect(r.body.confidence_rate).toBeGreaterThan(0.8);
    const meta = await sharp(paragraph).metadata();
    expect([r.body.image_width, r.body.image_height]).toEqual([meta.width, meta.height]);
    expect(r.body.auto_rotate_degrees).toBe(0);
    const mmdLines = (r.body.text as string).split('\n').filter(Boolean);
    expect(r.body.line_data.map((l: { text: string }) => l.text)).toEqual(mmdLines.map((l) => l.replace(/^#+ /, '')));
    expect(r.body.line_data[0].type).toBe('section_header');
    expect(r.body).toMatchObject({ is_printed: true, is_handwritten: false });
  });

  it("says an image of real pen ink is handwritten (the worker's ink-kind model; the typeset paragraph above is printed)", async () => {
    // Held-out Detexify drawings (no training sample came from their writers); the threshold is
    // lifted so the answer is given whatever the maths recogniser makes of the symbols.
    const pen = await text({ src: dataUrl(await handwrittenLinePng()), confidence_rate_threshold: 0 });
    expect(pen.status, pen.text).toBe(200);
    expect(pen.body).toMatchObject({ is_handwritten: true, is_printed: false });
  });

  it('reads a multipart upload', async () => {
    const form = new FormData();
    form.append('options_json', JSON.stringify({ formats: ['text', 'html'] }));
    form.append('file', new Blob([paragraph], { type: 'image/png' }), 'p.png');
    const r = await call('/v3/text', { headers: auth, form });
    expect(r.status, r.text).toBe(200);
    expect(r.body.text).toContain(HEADING_TEXT);
    // html is the text rendered by mathpix-markdown-it: a heading, a block per paragraph, its lines joined by <br>.
    expect(r.body.html).toMatch(new RegExp(`<h[12][^>]*>${HEADING_TEXT}</h[12]>`));
    expect(r.body.html).toContain(`<div>${PARAGRAPH_ONE[0]}<br>`);
  });

  it('takes an app token; reads pen strokes; refuses missing credentials with 401', async () => {
    const tok = await call('/v3/app-tokens', { headers: { app_key: auth.app_key } });
    expect(tok.status, tok.text).toBe(200);
    const r = await text({ src: dataUrl(paragraph) }, { app_token: tok.body.app_token });
    expect(r.status, r.text).toBe(200);
    expect(r.body.text).toContain(HEADING_TEXT);
    const none = await text({ src: dataUrl(paragraph) }, {});
    expect([none.status, none.body.error]).toEqual([401, 'unauthorized']);
    // /v3/strokes on the same appliance: pen strokes of "a+1" drawn by hand read by its recogniser. (A token
    // reaches it only with a strokes session: strokes-routes.test.ts.)
    const written = [...at('a', 0, 0, 40), ...at('+', 38, 0, 40), ...at('1', 80, 0, 40)];
    const strokes = { strokes: { strokes: { x: written.map((w) => w.x), y: written.map((w) => w.y) } } };
    const pen = await call('/v3/strokes', { headers: auth, json: strokes });
    expect(pen.status, pen.text).toBe(200);
    expect(pen.body.latex_styled.replace(/\s/g, '')).toBe('a+1');
    expect(pen.body.is_handwritten).toBe(true);
  });

  it('answers the error ids: opts_unknown_data_option, image_decode_error, image_download_error, math_confidence', async () => {
    const unknown = await text({ src: dataUrl(paragraph), data_options: { include_everything: true } });
    expect(unknown.body.error).toBe('opts_unknown_data_option');
    const decode = await text({ src: `data:image/png;base64,${Buffer.from('%PDF-1.4 not an image').toString('base64')}` });
    expect([decode.status, decode.body.error]).toEqual([200, 'image_decode_error']);
    const url = `http://127.0.0.1:${(loopback.address() as AddressInfo).port}/p.png`;
    const dl = await text({ src: url });
    expect([dl.status, dl.body.error, dl.body.error_info.url]).toEqual([200, 'image_download_error', url]);
    const { data, info } = await sharp(paragraph).greyscale().raw().toBuffer({ resolveWithObject: true });
    let seed = 7;
    for (let i = 0; i < data.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      data[i] = Math.max(0, Math.min(255, data[i]! + ((seed % 161) - 80)));
    }
    const noisy = await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
      .png()
      .toBuffer();
    const low = await text({ src: dataUrl(noisy), confidence_threshold: 0.9999 });
    expect([low.status, low.body.error, low.body.error_info.id]).toEqual([200, 'math_confidence', 'math_confidence']);
    expect(low.body.error_info.confidence).toBeGreaterThan(0); // text was read, just not surely enough
  });

  it('answers 429 http_max_requests past FOLIO_TEXT_REQUESTS_MAX=1', async () => {
    const slow = text({ src: dataUrl(await sharp(fullPage).jpeg({ quality: 80 }).toBuffer()) });
    // Deterministic: the second request goes only once /health shows the first in flight.
    for (;;) {
      const h = (await (await fetch(`${app.url}/health`)).json()) as { text_requests_in_flight: number };
      if (h.text_requests_in_flight === 1) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const second = await text({ src: dataUrl(paragraph) });
    expect([second.status, second.body.error]).toEqual([429, 'http_max_requests']);
    expect(second.body.error_info).toMatchObject({ limit_name: 'text_requests_max', limit_value: 1, count: 2 });
    const first = await slow;
    expect(first.status, first.text).toBe(200);
    expect(first.body.text).toContain(PARAGRAPH_ONE[1]);
  }, 90_000);
});
