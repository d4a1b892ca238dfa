import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsStream } from '../../core/events.js';
import type { Stroke } from '../../core/v3/strokes.js';
// The test plays the inference worker's part too: its 'strokes' reader runs in this process.
import { startStrokesWorker } from '../../worker/inference/strokes.js';
import { at } from '../support/pen-strokes.js';
import { authRoutes } from '../../appliance/auth/routes.js';
import { createApp } from '../../appliance/http/app.js';
import type { StrokesPool } from '../../appliance/http/v3/strokes-inference.js';
import { MAX_STROKES_JSON_BYTES, v3StrokesRoutes } from '../../appliance/http/v3/strokes-routes.js';
import { v3TestApp, type V3TestApp } from '../support/v3-test-app.js';

/** The 4.3 body shape: one inner array of coordinates per stroke. */
const body = (strokes: Stroke[], extra: Record<string, unknown> = {}) => ({
  strokes: { strokes: { x: strokes.map((s) => s.x), y: strokes.map((s) => s.y) } },
  ...extra,
});

describe('POST /v3/strokes (real Redis queue and recogniser, in-process)', () => {
  let t: V3TestApp;
  let worker: Awaited<ReturnType<typeof startStrokesWorker>>;
  let pool: StrokesPool | undefined;
  let app: ReturnType<typeof createApp>;
  let key: Awaited<ReturnType<V3TestApp['newKey']>>;
  let written: Stroke[];

  const call = async (json: unknown, headers: Record<string, string>) => {
    const res = await app.request('/v3/strokes', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof json === 'string' ? json : JSON.stringify(json),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    t = await v3TestApp();
    worker = await startStrokesWorker(t.workerCtx);
    app = createApp(t.ctx, [authRoutes(t.ctx), v3StrokesRoutes(t.ctx, { onPool: (p) => (pool = p) })]);
    key = await t.newKey();
    // "a+1" drawn by hand (test/support/pen-strokes.ts), not by any writer the classifier was trained on.
    written = [...at('a', 0, 0, 40), ...at('+', 38, 0, 40), ...at('1', 80, 0, 40)];
  });
  afterAll(async () => {
    await pool?.close();
    await worker?.close();
    await t?.close();
  });

  it('recognises pen strokes: text in inline delimiters, latex_styled, handwriting flags', async () => {
    const r = await call(body(written), key.headers);
    expect(r.status).toBe(200);
    expect(r.body.latex_styled.replace(/\s/g, '')).toBe('a+1');
    expect(r.body.text).toBe(`\\( ${r.body.latex_styled} \\)`);
    expect(r.body).toMatchObject({ is_handwritten: true, is_printed: false, auto_rotate_degrees: 0 });
    expect(r.body.confidence).toBeGreaterThan(0);
    expect(r.body.confidence).toBeLessThanOrEqual(r.body.confidence_rate);
    expect(r.body.request_id).toMatch(/\S/);
  });

  it('joins two written lines into one array environment', async () => {
    const below = written.map((s) => ({ x: s.x, y: s.y.map((y) => y + 120) }));
    const r = await call(body([...written, ...below], { formats: ['latex_styled'] }), key.headers);
    expect(r.body.latex_styled.replace(/\s/g, '')).toBe('\\begin{array}{l}a+1\\\\a+1\\end{array}');
    expect(r.body.text).toBeUndefined();
  });

  it('answers bad_request naming the field for every malformed strokes object', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'strokes'],
      [{ strokes: [] }, 'strokes'],
      [{ strokes: { strokes: 'x' } }, 'strokes.strokes'],
      [{ strokes: { strokes: { x: [], y: [] } } }, 'strokes.strokes.x'],
      [{ strokes: { strokes: { x: [[1, 'a']], y: [[1, 2]] } } }, 'strokes.strokes.x'],
      [{ strokes: { strokes: { x: [[1, 2]], y: [[1]] } } }, 'strokes.strokes'],
      [{ strokes: { strokes: { x: [[1], [2]], y: [[1]] } } }, 'strokes.strokes'],
      [{ ...body(written), confidence_threshold: 3 }, 'confidence_threshold'],
    ];
    for (const [json, field] of cases) {
      const r = await call(json, key.headers);
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(r.body.error).toBe('bad_request');
      expect(r.body.error_info.field).toBe(field);
    }
    expect((await call('{not json', key.headers)).body.error).toBe('bad_request');
  });

  it('refuses a body over 512 KB with sys_request_too_large', async () => {
    const huge = JSON.stringify(body([{ x: Array(MAX_STROKES_JSON_BYTES / 4).fill(1), y: Array(MAX_STROKES_JSON_BYTES / 4).fill(1) }]));
    const r = await call(huge, key.headers);
    expect(r.body.error).toBe('sys_request_too_large');
  });

  it('needs app_id + app_key, or an app token with its strokes_session_id', async () => {
    expect((await call(body(written), {})).body.error).toBe('unauthorized');
    expect((await call(body(written), { app_id: key.app_id, app_key: 'wrong' })).status).toBe(401);
    const plain = await app.request('/v3/app-tokens', { method: 'POST', headers: { app_key: key.app_key } });
    const { app_token } = (await plain.json()) as { app_token: string };
    expect((await call(body(written), { app_token })).body.error).toBe('unauthorized');
    const session = await app.request('/v3/app-tokens', {
      method: 'POST',
      headers: { app_key: key.app_key, 'content-type': 'application/json' },
      body: JSON.stringify({ include_strokes_session_id: true }),
    });
    const made = (await session.json()) as { app_token: string; strokes_session_id: string };
    expect((await call(body(written), { app_token: made.app_token, strokes_session_id: 'other' })).status).toBe(401);
    const ok = await call(body(written, { strokes_session_id: made.strokes_session_id }), {
      app_token: made.app_token,
      strokes_session_id: made.strokes_session_id,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.latex_styled.replace(/\s/g, '')).toBe('a+1');
  });

  it('reads a strokes session as a whole: strokes sent one by one accumulate (4.1, 4.3, part 5 rule 4)', async () => {
    const token = async () => {
      const res = await app.request('/v3/app-tokens', {
        method: 'POST',
        headers: { app_key: key.app_key, 'content-type': 'application/json' },
        body: JSON.stringify({ include_strokes_session_id: true }),
      });
      return (await res.json()) as { app_token: string; strokes_session_id: string };
    };
    const whole = (await call(body(written), key.headers)).body.latex_styled;
    // With the token that opened the session (headers), and with app_id + app_key naming it in the body.
    const viaToken = await token();
    const viaKey = await token();
    let lastToken: any;
    let lastKey: any;
    for (const stroke of written) {
      lastToken = (await call(body([stroke]), { app_token: viaToken.app_token, strokes_session_id: viaToken.strokes_session_id })).body;
      lastKey = (await call(body([stroke], { strokes_session_id: viaKey.strokes_session_id }), key.headers)).body;
    }
    expect(lastToken.latex_styled).toBe(whole);
    expect(lastKey.latex_styled).toBe(whole);
    // A stroke read alone is not the expression; the session answer spans all of them.
    expect((await call(body([written.at(-1)!]), key.headers)).body.latex_styled).not.toBe(whole);
    expect(lastKey.image_width).toBe((await call(body(written), key.headers)).body.image_width);
    const unknown = await call(body(written, { strokes_session_id: 'strokes_0000' }), key.headers);
    expect([unknown.status, unknown.body.error_info?.field]).toEqual([400, 'strokes_session_id']);
  });

  it('answers math_confidence with HTTP 200 below confidence_threshold, and records usage and history', async () => {
    const r = await call(body(written, { confidence_threshold: 1 }), key.headers);
    expect(r.status).toBe(200);
    expect(r.body.error).toBe('math_confidence');
    const events = (await t.ctx.redis.xrange(eventsStream(t.ctx.config.FOLIO_QUEUE_PREFIX), '-', '+')).map(([, f]) => JSON.parse(f[1]!));
    expect(events.find((e) => e.eventId === `usage:strokes:${r.body.request_id}`)?.deltas).toEqual({ images_failed: 1 });
    expect(events.some((e) => String(e.eventId).startsWith('usage:strokes:') && e.deltas?.images_completed === 1)).toBe(true);
    const stored = t.ctx.db.prepare('SELECT endpoint, usage_type FROM ocr_requests WHERE request_id = ?').get(r.body.request_id);
    expect(stored).toEqual({ endpoint: '/v3/strokes', usage_type: 'strokes' });
  });
});
