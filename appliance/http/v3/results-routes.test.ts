import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authRoutes } from '../../auth/routes.js';
import { OcrHistory } from '../../results/ocr-history.js';
import { createApp } from '../app.js';
import { publicResolver, v3TestApp, type V3TestApp } from '../../../test/support/v3-test-app.js';
import { v3ResultsRoutes } from './results-routes.js';
import { v3TextRoutes } from './text-routes.js';
import { assemblePage } from '../../../page/assemble.js';

// The recogniser is replaced by a function returning fixed lines: what is under test is the
// history kept around /v3/text, not recognition (covered by test/integration/v3-text.test.ts).
describe('GET /v3/ocr-results and /v3/ocr-usage (in-process, real Redis and SQLite)', () => {
  let t: V3TestApp;
  let app: ReturnType<typeof createApp>;
  let image: string;
  let alice: Awaited<ReturnType<V3TestApp['newKey']>>;
  let bob: Awaited<ReturnType<V3TestApp['newKey']>>;
  let stranger: Awaited<ReturnType<V3TestApp['newKey']>>;

  const call = async (method: string, path: string, headers: Record<string, string>, json?: unknown) => {
    const res = await app.request(path, {
      method,
      headers: { ...headers, ...(json ? { 'content-type': 'application/json' } : {}) },
      body: json ? JSON.stringify(json) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const text = (headers: Record<string, string>, body: Record<string, unknown>) => call('POST', '/v3/text', headers, { src: image, ...body });

  beforeAll(async () => {
    t = await v3TestApp();
    app = createApp(t.ctx, [
      authRoutes(t.ctx),
      v3TextRoutes(t.ctx, {
        resolve: publicResolver,
        recognize: async (_id, buf, opts = {}) => {
          const meta = await sharp(buf).metadata();
          return assemblePage(
            {
              lines: [{ text: `width ${meta.width}`, confidence: 0.9, box: { x: 0, y: 0, width: 10, height: 10 } }],
              width: meta.width!,
              height: meta.height!,
              rotation: 0,
              rotationConfidence: 0,
            },
            opts.assemble,
          );
        },
      }),
      v3ResultsRoutes(t.ctx, new OcrHistory(t.ctx.db)),
    ]);
    const png = (w: number) =>
      sharp({ create: { width: w, height: 40, channels: 3, background: '#fff' } })
        .png()
        .toBuffer();
    image = `data:image/png;base64,${(await png(120)).toString('base64')}`;
    alice = await t.newKey('alice', 'lab');
    bob = await t.newKey('bob', 'lab');
    stranger = await t.newKey('stranger', 'elsewhere');
  });
  afterAll(async () => t?.close());

  it('stores results unless improve_* is false, newest first, with filters and the group scope', async () => {
    expect((await text(alice.headers, { tags: ['exam', 'q1'] })).body.text).toBe('width 120');
    t.advance(60_000);
    await text(bob.headers, { tags: ['exam'], formats: ['text'] });
    t.advance(60_000);
    await text(alice.headers, { metadata: { improve_mathpix: false } });

    const all = await call('GET', '/v3/ocr-results', { app_key: alice.app_key });
    expect(all.status).toBe(200);
    expect(all.body.ocr_results).toHaveLength(2);
    const [newest, oldest] = all.body.ocr_results;
    expect(newest.request_args.tags).toEqual(['exam']);
    expect(oldest.result.text).toBe('width 120');
    expect(oldest.endpoint).toBe('/v3/text');
    expect(oldest.request_args.src).toBeUndefined(); // a data URL is the image, not an argument
    expect(oldest.detections).toMatchObject({ is_printed: true, is_handwritten: false, contains_table: false });
    expect(Date.parse(oldest.timestamp)).toBeLessThan(Date.parse(newest.timestamp));

    const byTags = await call('GET', '/v3/ocr-results?tags=exam&tags=q1', { app_key: bob.app_key });
    expect(byTags.body.ocr_results.map((r: any) => r.request_args.tags)).toEqual([['exam', 'q1']]);
    const byApp = await call('GET', `/v3/ocr-results?app_id=${bob.app_id}`, { app_key: alice.app_key });
    expect(byApp.body.ocr_results).toHaveLength(1);
    expect((await call('GET', '/v3/ocr-results?text=width%20999', { app_key: alice.app_key })).body.ocr_results).toEqual([]);
    expect((await call('GET', '/v3/ocr-results?is_handwritten=true', { app_key: alice.app_key })).body.ocr_results).toEqual([]);
    expect((await call('GET', '/v3/ocr-results?per_page=1&page=2', { app_key: alice.app_key })).body.ocr_results[0].request_args.tags).toEqual(['exam', 'q1']);
    expect((await call('GET', '/v3/ocr-results', { app_key: stranger.app_key })).body.ocr_results).toEqual([]);
  });

  it('counts every image request for ocr-usage, grouped and bucketed', async () => {
    const byType = await call('GET', '/v3/ocr-usage?timespan=month', alice.headers);
    expect(byType.status).toBe(200);
    expect(byType.body.ocr_usage).toEqual([
      { from_date: '2025-06-01T00:00:00.000Z', app_id: '', group_id: 'lab', usage_type: 'image', request_args_hash: '', count: 3 },
    ]);
    const byApp = await call('GET', '/v3/ocr-usage?group_by=app_id&timespan=hour', alice.headers);
    expect(byApp.body.ocr_usage.map((r: any) => [r.app_id, r.count]).sort()).toEqual(
      [
        [alice.app_id, 2],
        [bob.app_id, 1],
      ].sort(),
    );
    const byArgs = await call('GET', '/v3/ocr-usage?group_by=request_args_hash', alice.headers);
    expect(new Set(byArgs.body.ocr_usage.map((r: any) => r.request_args_hash)).size).toBe(3);
    const empty = await call('GET', '/v3/ocr-usage?from_date=2030-01-01', alice.headers);
    expect(empty.body.ocr_usage).toEqual([]);
  });

  it('answers the spec errors for bad queries and credentials', async () => {
    expect((await call('GET', '/v3/ocr-results?page=10001', { app_key: alice.app_key })).body.error_info.id).toBe('bad_request');
    expect((await call('GET', '/v3/ocr-results?is_printed=maybe', { app_key: alice.app_key })).body.error_info.id).toBe('bad_request');
    expect((await call('GET', '/v3/ocr-usage?group_by=colour', alice.headers)).body.error_info.id).toBe('bad_request');
    expect((await call('GET', '/v3/ocr-usage', { app_key: alice.app_key })).status).toBe(401);
    expect((await call('GET', '/v3/ocr-results', {})).status).toBe(401);
  });

  it('sweeps stored results after 30 days and keeps the usage metadata', async () => {
    const history = new OcrHistory(t.ctx.db);
    expect(history.sweep(t.ctx.now() + 31 * 86_400_000)).toBe(2);
    expect((await call('GET', '/v3/ocr-results', { app_key: alice.app_key })).body.ocr_results).toEqual([]);
    expect((await call('GET', '/v3/ocr-usage?timespan=month', alice.headers)).body.ocr_usage[0].count).toBe(3);
  });
  it('filters by request_id, takes True/False as Python sends them, and never ignores a filter', async () => {
    const made = await text(alice.headers, { tags: ['picked'] });
    const one = await call('GET', `/v3/ocr-results?request_id=${made.body.request_id}`, { app_key: bob.app_key });
    expect(one.body.ocr_results.map((r: any) => r.image_id)).toEqual([made.body.request_id]);
    expect((await call('GET', '/v3/ocr-results?request_id=2025_01_01_00000000000000000000', { app_key: alice.app_key })).body.ocr_results).toEqual([]);
    // No document has this id: pdf_id picks nothing, never the whole history.
    expect((await call('GET', '/v3/ocr-results?pdf_id=2025_01_01_00000000000000000000', { app_key: alice.app_key })).body.ocr_results).toEqual([]);
    expect((await call('GET', '/v3/ocr-results?is_printed=True', { app_key: alice.app_key })).body.ocr_results.length).toBeGreaterThan(0);
    expect((await call('GET', '/v3/ocr-results?is_printed=False', { app_key: alice.app_key })).body.ocr_results).toEqual([]);
    const unknown = await call('GET', '/v3/ocr-results?colour=red', { app_key: alice.app_key });
    expect([unknown.status, unknown.body.error]).toEqual([400, 'bad_request']);
    expect(unknown.body.error_info.message).toContain('colour');
    // Results that are errors are null results: only with include_null_results.
    const failed = await text(alice.headers, { src: 'data:image/png;base64,bm90IGFuIGltYWdl' });
    expect(failed.body.error).toBe('image_decode_error');
    const withoutNull = await call('GET', `/v3/ocr-results?request_id=${failed.body.request_id}`, { app_key: alice.app_key });
    const withNull = await call('GET', `/v3/ocr-results?request_id=${failed.body.request_id}&include_null_results=True`, { app_key: alice.app_key });
    expect([withoutNull.body.ocr_results.length, withNull.body.ocr_results.length]).toEqual([0, 1]);
  });
});
