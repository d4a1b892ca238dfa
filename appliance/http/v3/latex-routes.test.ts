import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsStream } from '../../../core/events.js';
import type { PageRecognition } from '../../../page/model.js';
import { authRoutes } from '../../auth/routes.js';
import { createApp } from '../app.js';
import { v3LatexRoutes } from './latex-routes.js';
import type { RecognizeOptions } from './text-inference.js';
import { v3TestApp, type V3TestApp } from '../../../test/support/v3-test-app.js';

/**
 * The HTTP contract of POST /v3/latex, in-process with a fake recogniser: the assertions are about
 * parameters, answers and errors, not recognition (test/integration/v3-latex.test.ts reads real images).
 */

const FORMULA: PageRecognition = {
  lines: [{ text: 'x² + 1', confidence: 0.95, box: { x: 2, y: 2, width: 60, height: 20 }, kind: 'text' }],
  width: 120,
  height: 40,
  rotation: 0,
  rotationConfidence: 0.9,
  formula: {
    latex: '\\mathrm{x}^{2} + \\frac{1}{2}',
    confidence: 0.8,
    confidenceRate: 0.95,
    symbolCount: 5,
    candidates: [
      { latex: 'x^{2}+\\frac{1}{2}', confidence: 0.8 },
      { latex: 'x^{2}+\\frac{l}{2}', confidence: 0.1 },
      { latex: '\\chi^{2}+\\frac{1}{2}', confidence: 0.05 },
    ],
  },
};
const png = (w = 120, h = 40) =>
  sharp({ create: { width: w, height: h, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
const dataUrl = (b: Buffer) => `data:image/png;base64,${b.toString('base64')}`;

describe('POST /v3/latex (in-process, fake recogniser)', () => {
  let t: V3TestApp;
  let app: ReturnType<typeof createApp>;
  let key: Awaited<ReturnType<V3TestApp['newKey']>>;
  let image: Buffer;
  const asked: RecognizeOptions[] = [];
  let answer: PageRecognition | Error = FORMULA;
  let receiver: Server;
  const received: Array<{ headers: IncomingMessage['headers']; body: any }> = [];

  const call = async (json: unknown, headers: Record<string, string> = key.headers) => {
    const res = await app.request('/v3/latex', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof json === 'string' ? json : JSON.stringify(json),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    t = await v3TestApp({ env: { FOLIO_ALLOW_PRIVATE_URLS: 'true' } });
    app = createApp(t.ctx, [
      authRoutes(t.ctx),
      v3LatexRoutes(t.ctx, {
        recognize: async (_id, _png, opts = {}) => {
          asked.push(opts);
          if (answer instanceof Error) throw answer;
          return answer;
        },
      }),
    ]);
    key = await t.newKey();
    image = await png();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        received.push({ headers: req.headers, body: JSON.parse(body) });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    receiver?.close();
    await t?.close();
  });

  it('answers 2.2: the requested formats, transforms, confidences, detections and position', async () => {
    const r = await call({
      src: dataUrl(image),
      formats: ['text', 'text_display', 'latex_styled', 'latex_normal', 'latex_list', 'asciimath', 'mathml', 'wolfram'],
      format_options: { transforms: ['rm_spaces'], math_delims: ['$', '$'] },
    });
    expect(r.status).toBe(200);
    expect(asked.at(-1)).toEqual({ math: 'formula', nBest: undefined });
    expect(r.body).toMatchObject({
      text: '$ \\mathrm{x}^{2}+\\frac{1}{2} $',
      text_display: '\\[\n\\mathrm{x}^{2}+\\frac{1}{2}\n\\]',
      latex_styled: '\\mathrm{x}^{2}+\\frac{1}{2}',
      latex_normal: 'x^{2}+\\frac{1}{2}',
      latex_list: ['x^{2}+\\frac{1}{2}'],
      latex_confidence: 0.8,
      latex_confidence_rate: 0.95,
      image_width: 120,
      image_height: 40,
      position: { top_left_x: 0, top_left_y: 0, width: 120, height: 40 },
      detection_map: {
        is_blank: 0,
        is_printed: 1,
        is_not_math: 0,
        is_inverted: 0,
        contains_table: 0,
        contains_chart: 0,
        contains_diagram: 0,
        contains_graph: 0,
      },
      detection_list: ['is_printed'],
      auto_rotate_degrees: 0,
    });
    expect(r.body.asciimath).toBe('x^(2)+(1)/(2)');
    expect(r.body.detected_alphabets).toBeUndefined();
    const flagged = await call({ src: dataUrl(image), formats: ['text'], include_detected_alphabets: true });
    expect(flagged.body.detected_alphabets).toEqual([expect.objectContaining({ en: true, zh: false, ru: false, hi: false })]);
    expect(r.body.wolfram).toBe(r.body.asciimath.replace(/\s+/g, ' ').trim());
    expect(r.body.mathml).toMatch(/^<math/);
    expect(r.body.latex_simplified).toBeUndefined();
    expect(r.body.candidates).toBeUndefined();
  });

  it('reads line by line with ocr [math, text]; lists n_best candidates; crops to region', async () => {
    await call({ src: dataUrl(image), formats: ['latex_styled'], ocr: ['math', 'text'] });
    expect(asked.at(-1)!.math).toBe('auto');
    const r = await call({
      src: dataUrl(image),
      formats: ['latex_styled'],
      beam_size: 5,
      n_best: 2,
      region: { top_left_x: 10, top_left_y: 0, width: 50, height: 30 },
    });
    expect(asked.at(-1)!.nBest).toBe(2);
    expect(r.body.candidates).toEqual([
      { latex_styled: 'x^{2}+\\frac{1}{2}', latex_confidence: 0.8 },
      { latex_styled: 'x^{2}+\\frac{l}{2}', latex_confidence: 0.1 },
    ]);
    expect(r.body.position).toEqual({ top_left_x: 10, top_left_y: 0, width: 50, height: 30 });
  });

  it('answers bad_request for missing formats, n_best without beam_size or above it, bad callbacks', async () => {
    for (const body of [
      { src: dataUrl(image) },
      { src: dataUrl(image), formats: ['latex_fancy'] },
      { src: dataUrl(image), formats: ['text'], n_best: 2 },
      { src: dataUrl(image), formats: ['text'], beam_size: 2, n_best: 3 },
      { src: dataUrl(image), formats: ['text'], beam_size: 11 },
      { src: dataUrl(image), formats: ['text'], callback: { post: 'ftp://x' } },
      { formats: ['text'] },
    ]) {
      const r = await call(body);
      expect([r.status, r.body.error], JSON.stringify(body).slice(0, 80)).toEqual([400, 'bad_request']);
    }
    expect((await call({ src: dataUrl(image), formats: ['text'], n_best: 2 })).body.error_info.field).toBe('n_best');
  });

  it('answers image_decode_error, image_download_error, math_confidence and sys_exception with HTTP 200', async () => {
    const decode = await call({ src: dataUrl(Buffer.from('no image')), formats: ['text'] });
    expect([decode.status, decode.body.error]).toEqual([200, 'image_decode_error']);
    const url = 'http://127.0.0.1:9/none.png';
    const dl = await call({ src: url, formats: ['text'] });
    expect([dl.status, dl.body.error, dl.body.error_info.url]).toEqual([200, 'image_download_error', url]);
    const low = await call({ src: dataUrl(image), formats: ['text'], confidence_threshold: 0.9 });
    expect([low.status, low.body.error, low.body.error_info.confidence]).toEqual([200, 'math_confidence', 0.8]);
    answer = new Error('pool down');
    const sys = await call({ src: dataUrl(image), formats: ['text'] });
    answer = FORMULA;
    expect([sys.status, sys.body.error]).toEqual([200, 'sys_exception']);
  });

  it('refuses oversized bodies, tokens and missing credentials', async () => {
    expect((await call({ src: dataUrl(Buffer.alloc(2 * 1024 * 1024 + 10, 1)), formats: ['text'] })).body.error).toBe('sys_request_too_large');
    expect((await call(JSON.stringify({ src: 'x'.repeat(5 * 1024 * 1024 + 1), formats: ['text'] }))).body.error).toBe('sys_request_too_large');
    expect((await call({ src: dataUrl(image), formats: ['text'] }, {})).status).toBe(401);
    const tok = await app.request('/v3/app-tokens', { method: 'POST', headers: { app_key: key.app_key } });
    const { app_token } = (await tok.json()) as { app_token: string };
    expect((await call({ src: dataUrl(image), formats: ['text'] }, { app_token })).status).toBe(401);
  });

  it('answers 429 http_max_requests when the image slots are taken', async () => {
    t.ctx.textRequests.inFlight = t.ctx.config.FOLIO_TEXT_REQUESTS_MAX;
    const r = await call({ src: dataUrl(image), formats: ['text'] });
    t.ctx.textRequests.inFlight = 0;
    expect([r.status, r.body.error, r.body.error_info.limit_name]).toEqual([429, 'http_max_requests', 'text_requests_max']);
  });

  it('with a callback answers the session id at once and POSTs {reply, result} to callback.post', async () => {
    const post = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const r = await call({ src: dataUrl(image), formats: ['latex_styled'], callback: { post, reply: { mine: 7 }, headers: { 'x-token': 'abc' } } });
    expect(Object.keys(r.body)).toEqual(['session_id']);
    while (!received.length) await new Promise((res) => setTimeout(res, 10));
    expect(received[0]!.headers['x-token']).toBe('abc');
    expect(received[0]!.body).toMatchObject({ reply: { mine: 7 }, result: { request_id: r.body.session_id, latex_styled: '\\mathrm{x}^{2} + \\frac{1}{2}' } });
    while (t.ctx.textRequests.inFlight) await new Promise((res) => setTimeout(res, 10));
  });

  it('counts usage per image and records history with usage type image', async () => {
    const ok = await call({ src: dataUrl(image), formats: ['text'], metadata: { improve_mathpix: false } });
    const events = (await t.ctx.redis.xrange(eventsStream(t.ctx.config.FOLIO_QUEUE_PREFIX), '-', '+')).map(([, f]) => JSON.parse(f[1]!));
    expect(events.find((e) => e.eventId === `usage:latex:${ok.body.request_id}`).deltas).toEqual({ images_completed: 1, images_billable: 1 });
    expect(events.some((e) => e.eventId.startsWith('usage:latex:') && e.deltas.images_failed === 1)).toBe(true);
    const row = t.ctx.db.prepare('SELECT endpoint, usage_type FROM ocr_requests WHERE request_id = ?').get(ok.body.request_id);
    expect(row).toEqual({ endpoint: '/v3/latex', usage_type: 'image' });
    expect(t.ctx.db.prepare('SELECT 1 FROM ocr_results WHERE request_id = ?').get(ok.body.request_id)).toBeUndefined();
  });
});
