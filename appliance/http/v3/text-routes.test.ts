import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsStream } from '../../../core/events.js';
import type { PageLine } from '../../../page/model.js';
import { authRoutes } from '../../auth/routes.js';
import { OcrHistory } from '../../results/ocr-history.js';
import { createApp } from '../app.js';
import { publicResolver, v3TestApp, type V3TestApp } from '../../../test/support/v3-test-app.js';
import { v3ResultsRoutes } from './results-routes.js';
import { confidences } from './text-result.js';
import { v3TextRoutes } from './text-routes.js';
import { assemblePage } from '../../../page/assemble.js';

const word = (text: string, x: number, confidence: number) => ({ text, confidence, box: { x, y: 5, width: 40, height: 20 } });
const LINES: PageLine[] = [
  {
    text: 'Hello <world> & co',
    confidence: 0.98,
    box: { x: 10, y: 5, width: 200, height: 20 },
    words: [word('Hello', 10, 0.99), word('<world>', 60, 0.97), word('&', 110, 0.98), word('co', 160, 0.98)],
  },
  { text: 'Second line', confidence: 0.9, box: { x: 10, y: 30, width: 120, height: 20 } },
];

const png = (w = 300, h = 80) =>
  sharp({ create: { width: w, height: h, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
const dataUrl = (b: Buffer, type = 'image/png') => `data:${type};base64,${b.toString('base64')}`;

describe('POST /v3/text (in-process, fake inference)', () => {
  let t: V3TestApp;
  let app: ReturnType<typeof createApp>;
  let seen: { requestId: string; width: number; height: number }[] = [];
  let gate: Promise<void> | null = null;
  let key: Awaited<ReturnType<V3TestApp['newKey']>>;
  let image: Buffer;
  let loopback: Server;

  const call = async (init: { headers?: Record<string, string>; json?: unknown; form?: FormData; body?: string }) => {
    const headers = { ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers };
    const res = await app.request('/v3/text', {
      method: 'POST',
      headers,
      body: init.form ?? (init.json !== undefined ? JSON.stringify(init.json) : init.body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    t = await v3TestApp({ env: { FOLIO_TEXT_REQUESTS_MAX: '1' } });
    app = createApp(t.ctx, [
      authRoutes(t.ctx),
      v3ResultsRoutes(t.ctx, new OcrHistory(t.ctx.db)),
      v3TextRoutes(t.ctx, {
        resolve: publicResolver,
        recognize: async (requestId, buf, opts = {}) => {
          const meta = await sharp(buf).metadata();
          seen.push({ requestId, width: meta.width!, height: meta.height! });
          if (gate) await gate;
          return assemblePage({ lines: LINES, width: meta.width!, height: meta.height!, rotation: 90, rotationConfidence: 0.995 }, opts.assemble);
        },
      }),
    ]);
    key = await t.newKey();
    image = await png();
    loopback = createServer((_req, res) => res.end(image));
    await new Promise<void>((r) => loopback.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    loopback?.close();
    await t?.close();
  });

  it('answers 2.1 for a data URL: text, confidences, rotation, sizes, html and line_data', async () => {
    const r = await call({ headers: key.headers, json: { src: dataUrl(image), formats: ['text', 'html'], include_line_data: true } });
    expect(r.status).toBe(200);
    expect(r.body.text).toBe('Hello <world> & co\nSecond line');
    expect(r.body.html).toBe('<div>Hello &lt;world&gt; &amp; co<br>\nSecond line</div>\n');
    expect(r.body.confidence).toBeCloseTo(0.98 * 0.9, 5);
    expect(r.body.confidence_rate).toBeCloseTo(confidences(LINES).confidence_rate, 6);
    expect(r.body).toMatchObject({
      is_printed: true,
      is_handwritten: false,
      auto_rotate_degrees: 90,
      auto_rotate_confidence: 0.995,
      image_width: 300,
      image_height: 80,
    });
    // Only the formats asked for: no data without 'data' in formats (or data_options).
    expect(r.body.data).toBeUndefined();
    expect(r.body.version).toMatch(/^folio-ocr-/);
    expect(r.body.request_id).toMatch(/^\d{4}_\d{2}_\d{2}_[0-9a-f]{20}$/);
    expect(r.body.line_data[0]).toEqual({
      type: 'text',
      cnt: [
        [10, 5],
        [210, 5],
        [210, 25],
        [10, 25],
      ],
      included: true,
      is_printed: true,
      is_handwritten: false,
      text: 'Hello <world> & co',
      confidence: 0.98,
      confidence_rate: 0.98,
    });
    expect(r.body.latex_styled).toBeUndefined();
  });

  it('adds word_data, lines_json and detected_alphabets when asked; alphabets_allowed removes an alphabet', async () => {
    const r = await call({
      headers: key.headers,
      json: {
        src: dataUrl(image),
        include_word_data: true,
        include_lines_json: true,
        include_detected_alphabets: true,
        alphabets_allowed: { en: true, zh: false },
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.word_data.map((w: { text: string }) => w.text)).toEqual(['Hello', '<world>', '&', 'co']);
    expect(r.body.word_data[1]).toEqual({
      type: 'text',
      cnt: [
        [60, 5],
        [100, 5],
        [100, 25],
        [60, 25],
      ],
      text: '<world>',
      confidence: 0.97,
      confidence_rate: 0.97,
    });
    expect(r.body.lines_json.pages).toHaveLength(1);
    expect(r.body.lines_json.pages[0]).toMatchObject({ page: 1, page_width: 300, page_height: 80 });
    expect(r.body.lines_json.pages[0].lines[1]).toEqual({
      id: '1-2',
      type: 'text',
      text: 'Second line',
      region: { top_left_x: 10, top_left_y: 30, width: 120, height: 20 },
      font_size: 20,
      conversion_output: true,
    });
    expect(r.body.detected_alphabets).toEqual([expect.objectContaining({ en: true, zh: false, ru: false })]);
    const noLatin = await call({ headers: key.headers, json: { src: dataUrl(image), alphabets_allowed: { en: false } } });
    expect(noLatin.body.text).toBe('<> &');
    const bad = await call({ headers: key.headers, json: { src: dataUrl(image), alphabets_allowed: { xx: false } } });
    expect([bad.status, bad.body.error, bad.body.error_info.field]).toEqual([400, 'bad_request', 'alphabets_allowed.xx']);
    const both = await call({ headers: key.headers, json: { src: dataUrl(image), include_word_data: true, enable_document_layout: true } });
    expect([both.status, both.body.error]).toEqual([400, 'bad_request']);
  });

  it('honours auto_rotate_confidence_threshold (1 disables) and formats without text', async () => {
    const r = await call({ headers: key.headers, json: { src: dataUrl(image), auto_rotate_confidence_threshold: 1, formats: ['html'] } });
    expect(r.body.auto_rotate_degrees).toBe(0);
    expect(r.body.text).toBeUndefined();
    expect(r.body.html).toContain('Second line</div>');
  });

  it('crops to region before recognition; an empty region is no region', async () => {
    seen = [];
    const r = await call({ headers: key.headers, json: { src: dataUrl(image), region: { top_left_x: 20, top_left_y: 10, width: 100, height: 500 } } });
    expect(r.body).toMatchObject({ image_width: 100, image_height: 70 });
    expect(seen[0]).toMatchObject({ width: 100, height: 70 });
    const whole = await call({ headers: key.headers, json: { src: dataUrl(image), region: {} } });
    expect(whole.body).toMatchObject({ image_width: 300, image_height: 80 });
    const outside = await call({ headers: key.headers, json: { src: dataUrl(image), region: { top_left_x: 900, top_left_y: 0, width: 10, height: 10 } } });
    expect(outside.status).toBe(400);
  });

  it('takes multipart file + options_json', async () => {
    const f = new FormData();
    f.append('options_json', JSON.stringify({ include_line_data: true }));
    f.append('file', new Blob([image], { type: 'image/png' }), 'a.png');
    const r = await call({ headers: key.headers, form: f });
    expect(r.status).toBe(200);
    expect(r.body.line_data).toHaveLength(2);
  });

  it('validates parameters: types, unknown data_options, unknown top-level keys pass', async () => {
    expect((await call({ headers: key.headers, json: { src: dataUrl(image), data_options: { include_tsv: true, include_bogus: true } } })).body.error).toBe(
      'opts_unknown_data_option',
    );
    const bad = await call({ headers: key.headers, json: { src: dataUrl(image), confidence_threshold: 2 } });
    expect([bad.status, bad.body.error, bad.body.error_info.field]).toEqual([400, 'bad_request', 'confidence_threshold']);
    expect((await call({ headers: key.headers, json: { src: dataUrl(image), include_word_data: true, enable_document_layout: true } })).status).toBe(400);
    expect((await call({ headers: key.headers, json: {} })).body.error_info.field).toBe('src');
    const ok = await call({ headers: key.headers, json: { src: dataUrl(image), some_future_option: 1, data_options: { include_asciimath: true } } });
    expect([ok.status, ok.body.data]).toEqual([200, []]);
  });

  it('answers math_confidence, image_decode_error and image_download_error with HTTP 200', async () => {
    const low = await call({ headers: key.headers, json: { src: dataUrl(image), confidence_threshold: 0.95 } });
    expect([low.status, low.body.error, low.body.error_info.id]).toEqual([200, 'math_confidence', 'math_confidence']);
    const decode = await call({ headers: key.headers, json: { src: dataUrl(Buffer.from('not an image at all')) } });
    expect([decode.status, decode.body.error]).toEqual([200, 'image_decode_error']);
    const url = `http://127.0.0.1:${(loopback.address() as AddressInfo).port}/a.png`;
    const dl = await call({ headers: key.headers, json: { src: url } });
    expect([dl.status, dl.body.error, dl.body.error_info.url]).toEqual([200, 'image_download_error', url]);
  });

  it('refuses bodies over the limits: 2 MB base64, 5 MB JSON or multipart', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024 + 10, 1);
    expect((await call({ headers: key.headers, json: { src: dataUrl(big) } })).body.error).toBe('sys_request_too_large');
    expect((await call({ headers: key.headers, json: { src: 'x'.repeat(5 * 1024 * 1024 + 1) } })).body.error).toBe('sys_request_too_large');
    // Part 8: 5 MB covers the whole multipart payload, the file included.
    const form = (parts: Buffer[]) => {
      const f = new FormData();
      f.append('options_json', '{}');
      parts.forEach((p, i) => f.append(i === 0 ? 'file' : `extra${i}`, new Blob([p], { type: 'image/png' }), `p${i}.png`));
      return f;
    };
    const sixMb = await call({ headers: key.headers, form: form([Buffer.alloc(6 * 1024 * 1024, 1)]) });
    expect([sixMb.status, sixMb.body.error]).toEqual([413, 'sys_request_too_large']);
    const split = await call({ headers: key.headers, form: form([Buffer.alloc(4 * 1024 * 1024, 1), Buffer.alloc(1536 * 1024, 1)]) });
    expect([split.status, split.body.error]).toEqual([413, 'sys_request_too_large']);
  });

  it('needs credentials; an app token works', async () => {
    expect((await call({ json: { src: dataUrl(image) } })).status).toBe(401);
    const tok = await app.request('/v3/app-tokens', { method: 'POST', headers: { app_key: key.app_key } });
    const { app_token } = (await tok.json()) as { app_token: string };
    const r = await call({ headers: { app_token }, json: { src: dataUrl(image) } });
    expect(r.status).toBe(200);
  });

  it('answers 429 http_max_requests past FOLIO_TEXT_REQUESTS_MAX and counts usage', async () => {
    let open!: () => void;
    gate = new Promise<void>((r) => (open = r));
    const first = call({ headers: key.headers, json: { src: dataUrl(image) } });
    while (t.ctx.textRequests.inFlight === 0) await new Promise((r) => setTimeout(r, 5));
    const second = await call({ headers: key.headers, json: { src: dataUrl(image) } });
    expect([second.status, second.body.error]).toEqual([429, 'http_max_requests']);
    expect(second.body.error_info).toMatchObject({ limit_name: 'text_requests_max', limit_value: 1, count: 2 });
    open();
    gate = null;
    const done = await first;
    expect(done.status).toBe(200);
    expect(t.ctx.textRequests.inFlight).toBe(0);
    const events = (await t.ctx.redis.xrange(eventsStream(t.ctx.config.FOLIO_QUEUE_PREFIX), '-', '+')).map(([, f]) => JSON.parse(f[1]!));
    const mine = events.find((e) => e.eventId === `usage:text:${done.body.request_id}`);
    expect(mine.deltas).toEqual({ images_completed: 1, images_billable: 1 });
    expect(events.some((e) => e.deltas?.images_failed === 1)).toBe(true);
  });

  it('async: answers the request id at once, holds its slot while the image is read, then /v3/ocr-results?request_id= has the result', async () => {
    let open!: () => void;
    gate = new Promise<void>((r) => (open = r));
    const first = await call({ headers: key.headers, json: { src: dataUrl(image), async: true } });
    expect(first).toEqual({ status: 200, body: { request_id: expect.any(String) } });
    const second = await call({ headers: key.headers, json: { src: dataUrl(image) } });
    expect([second.status, second.body.error]).toEqual([429, 'http_max_requests']);
    open();
    gate = null;
    const id = first.body.request_id as string;
    let record: any;
    for (let i = 0; i < 200 && !record; i++) {
      const res = await app.request(`/v3/ocr-results?request_id=${id}`, { headers: key.headers });
      record = ((await res.json()) as any).ocr_results?.[0];
      if (!record) await new Promise((r) => setTimeout(r, 25));
    }
    expect(record).toMatchObject({ image_id: id, endpoint: '/v3/text', result: { request_id: id } });
    expect(record.result.text).toContain('Hello');
    expect(t.ctx.textRequests.inFlight).toBe(0);
  });
});
