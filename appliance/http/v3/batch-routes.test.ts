import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchStore } from '../../../core/v3/batch-store.js';
import type { PageRecognition } from '../../../page/model.js';
import { authRoutes } from '../../auth/routes.js';
import { createApp } from '../app.js';
import { v3BatchRoutes, type V3BatchRoutes } from './batch-routes.js';
import type { RecognizeOptions } from './text-inference.js';
import { v3TestApp, type V3TestApp } from '../../../test/support/v3-test-app.js';
import { assemblePage } from '../../../page/assemble.js';

/**
 * The HTTP contract of the legacy batch, in-process with a fake recogniser that answers once
 * released (the assertions are about records, partial results, access and callbacks;
 * test/integration/v3-batch.test.ts reads real images).
 */

const PAGE: PageRecognition = {
  lines: [
    {
      text: '',
      confidence: 0.9,
      box: { x: 0, y: 0, width: 10, height: 10 },
      kind: 'math',
      math: { latex: 'a+b', confidence: 0.9, confidenceRate: 0.97, symbolCount: 3 },
    },
  ],
  width: 60,
  height: 30,
  rotation: 0,
  rotationConfidence: 1,
  formula: { latex: 'a+b', confidence: 0.9, confidenceRate: 0.97, symbolCount: 3 },
};

describe('POST/GET /v3/batch (in-process, fake recogniser)', () => {
  let t: V3TestApp;
  let app: ReturnType<typeof createApp>;
  let batch: V3BatchRoutes;
  let key: Awaited<ReturnType<V3TestApp['newKey']>>;
  let server: Server;
  let base: string;
  const asked: RecognizeOptions[] = [];
  let gate: Promise<void> = Promise.resolve();
  const hooks: any[] = [];

  const call = async (method: string, path: string, json?: unknown, headers: Record<string, string> = key.headers) => {
    const res = await app.request(path, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const settled = async (batchId: string, n: number) => {
    for (;;) {
      const r = await call('GET', `/v3/batch/${batchId}`);
      if (Object.keys(r.body.results).length >= n) return r.body;
      await new Promise((res) => setTimeout(res, 10));
    }
  };

  beforeAll(async () => {
    t = await v3TestApp({ env: { FOLIO_ALLOW_PRIVATE_URLS: 'true' } });
    batch = v3BatchRoutes(t.ctx, {
      recognize: async (_id, _png, opts = {}) => {
        asked.push(opts);
        await gate;
        return opts.assemble ? assemblePage(PAGE, opts.assemble) : PAGE;
      },
    });
    app = createApp(t.ctx, [authRoutes(t.ctx), batch.routes]);
    key = await t.newKey();
    const image = await sharp({ create: { width: 60, height: 30, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    server = createServer((req, res) => {
      if (req.url === '/hook') {
        let body = '';
        req.on('data', (d) => (body += d));
        req.on('end', () => {
          hooks.push(JSON.parse(body));
          res.end();
        });
        return;
      }
      if (req.url === '/missing.png') return void res.writeHead(404).end();
      res.end(req.url === '/junk.png' ? Buffer.from('junk') : image);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await batch?.stop();
    server?.close();
    await t?.close();
  });

  it('answers a batch_id, shows partial results while running and every result when done', async () => {
    let open!: () => void;
    gate = new Promise((r) => (open = r));
    const r = await call('POST', '/v3/batch', {
      urls: { a: `${base}/a.png`, b: { url: `${base}/b.png`, formats: ['text'] }, c: `${base}/c.png` },
      formats: ['latex_styled'],
      beam_size: 2,
      n_best: 1,
    });
    expect(r.status).toBe(200);
    expect(r.body.batch_id).toMatch(/^\d{4}_\d{2}_\d{2}_[0-9a-f]{20}$/);
    const running = await call('GET', `/v3/batch/${r.body.batch_id}`);
    expect(running.body).toEqual({ keys: ['a', 'b', 'c'], results: {} });
    open();
    const done = await settled(r.body.batch_id, 3);
    expect(done.results.a).toMatchObject({ latex_styled: 'a+b', latex_confidence: 0.9 });
    expect(done.results.b).toMatchObject({ text: '\\( a+b \\)' });
    expect(done.results.b.latex_styled).toBeUndefined();
    expect(asked.slice(-3).every((o) => o.priority === 'normal' && o.math === 'formula' && o.nBest === 1)).toBe(true);
    const history = t.ctx.db.prepare("SELECT COUNT(*) AS n FROM ocr_requests WHERE endpoint = '/v3/batch' AND usage_type = 'image-async'").get() as {
      n: number;
    };
    expect(history.n).toBe(3);
  });

  it('reads as /v3/text with ocr_behavior text; failed images carry their error', async () => {
    const r = await call('POST', '/v3/batch', {
      ocr_behavior: 'text',
      urls: { good: `${base}/a.png`, junk: `${base}/junk.png`, gone: `${base}/missing.png` },
      formats: ['text', 'latex_styled'],
    });
    const done = await settled(r.body.batch_id, 3);
    expect(done.results.good).toMatchObject({ text: '\\( a+b \\)', latex_styled: 'a+b' });
    expect(asked.at(-1)).toMatchObject({ math: 'auto', priority: 'normal' });
    expect(done.results.junk.error).toBe('image_decode_error');
    expect(done.results.gone).toMatchObject({ error: 'image_download_error', error_info: { url: `${base}/missing.png` } });
  });

  it('without formats answers latex (the legacy field) with latex_styled; takes data: image URLs', async () => {
    const png = await sharp({ create: { width: 60, height: 30, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const r = await call('POST', '/v3/batch', {
      urls: { web: `${base}/a.png`, inline: `data:image/png;base64,${png.toString('base64')}`, asked: { url: `${base}/a.png`, formats: ['latex_styled'] } },
    });
    expect(r.status).toBe(200);
    const done = await settled(r.body.batch_id, 3);
    expect(done.results.web).toMatchObject({ latex: 'a+b', latex_styled: 'a+b' });
    expect(done.results.web.latex_normal).toBeUndefined();
    expect(done.results.inline).toMatchObject({ latex: 'a+b', latex_styled: 'a+b' });
    // Formats named: only those.
    expect(done.results.asked.latex).toBeUndefined();
  });

  it('shows a batch only to its app; unknown ids are not_found', async () => {
    const r = await call('POST', '/v3/batch', { urls: { a: `${base}/a.png` } });
    const other = await t.newKey();
    expect((await call('GET', `/v3/batch/${r.body.batch_id}`, undefined, other.headers)).status).toBe(404);
    expect((await call('GET', '/v3/batch/2025_01_01_00000000000000000000')).body.error).toBe('not_found');
    expect((await call('GET', `/v3/batch/${r.body.batch_id}`, undefined, {})).status).toBe(401);
  });

  it('answers bad_request for bad urls, options and callbacks', async () => {
    for (const body of [
      {},
      { urls: {} },
      { urls: { a: 'ftp://x/y.png' } },
      { urls: { a: `${base}/a.png` }, ocr_behavior: 'pdf' },
      { urls: { a: { url: `${base}/a.png`, n_best: 2 } } },
      { urls: { a: `${base}/a.png` }, callback: { post: 'nope' } },
      { urls: { a: `${base}/a.png` }, src: 'x' },
      { ocr_behavior: 'text', urls: { a: { url: `${base}/a.png`, options: { data_options: { include_nothing: true } } } } },
    ]) {
      const r = await call('POST', '/v3/batch', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    const r = await call('POST', '/v3/batch', { urls: { a: { url: `${base}/a.png`, n_best: 2 } } });
    expect(r.body.error_info.field).toBe('urls.a');
  });

  it('with a callback answers the reply with batch_id and POSTs {reply, result} once all images settled', async () => {
    const r = await call('POST', '/v3/batch', {
      urls: { x: `${base}/a.png`, y: `${base}/a.png` },
      callback: { post: `${base}/hook`, reply: { job: 'mine', batch_id: 'ignored' } },
    });
    expect(r.body).toEqual({ job: 'mine', batch_id: expect.stringMatching(/^\d{4}_/) });
    while (!hooks.length) await new Promise((res) => setTimeout(res, 10));
    expect(hooks[0].reply).toEqual({ job: 'mine', batch_id: 'ignored' });
    expect(hooks[0].result.keys).toEqual(['x', 'y']);
    expect(Object.keys(hooks[0].result.results).sort()).toEqual(['x', 'y']);
  });

  it('resumes an open batch after a restart, redoing only unsettled images', async () => {
    const record = {
      batch_id: '2025_06_01_0000000000000000000a',
      app_id: key.app_id,
      group_id: 'g',
      created_at: 'now',
      ocr_behavior: 'latex' as const,
      items: [
        { key: 'done', url: `${base}/a.png`, options: { formats: ['latex_styled'], ocr: ['math'] } },
        { key: 'left', url: `${base}/a.png`, options: { formats: ['latex_styled'], ocr: ['math'] } },
      ],
    };
    // As a previous run left it: stored, one image settled, still open.
    const s = new BatchStore(t.ctx.redis, t.ctx.config.FOLIO_QUEUE_PREFIX);
    await s.create(record);
    await s.setResult(record.batch_id, 'done', { kept: true });
    const before = asked.length;
    await batch.start();
    const done = await settled(record.batch_id, 2);
    expect(done.results.done).toEqual({ kept: true });
    expect(done.results.left.latex_styled).toBe('a+b');
    expect(asked.length - before).toBe(1);
    expect(await s.open()).not.toContain(record.batch_id);
  });
});
