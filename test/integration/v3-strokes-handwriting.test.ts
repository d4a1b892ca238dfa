import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stroke } from '../../core/v3/strokes.js';
// The test plays the inference worker's part too: its 'strokes' reader runs in this process.
import { startStrokesWorker } from '../../worker/inference/strokes.js';
import { at, bar, radical } from '../support/pen-strokes.js';
import { authRoutes } from '../../appliance/auth/routes.js';
import { createApp } from '../../appliance/http/app.js';
import type { StrokesPool } from '../../appliance/http/v3/strokes-inference.js';
import { v3StrokesRoutes } from '../../appliance/http/v3/strokes-routes.js';
import { v3TestApp, type V3TestApp } from '../support/v3-test-app.js';

/**
 * Handwriting no training example came from, read exactly through POST /v3/strokes with the
 * default options (so the default confidence_rate_threshold 0.75 applies). The strokes are drawn
 * by hand for these tests (test/support/pen-strokes.ts: coordinates written as a pen
 * moves, leaning forward); the shipped classifier was trained on Detexify and UNIPEN writers only.
 * UNIPEN drawings may not be redistributed, so none are used here.
 */
describe('POST /v3/strokes reads handwriting at default options', () => {
  let t: V3TestApp;
  let worker: Awaited<ReturnType<typeof startStrokesWorker>>;
  let pool: StrokesPool | undefined;
  let app: ReturnType<typeof createApp>;
  let headers: Record<string, string>;

  beforeAll(async () => {
    t = await v3TestApp();
    worker = await startStrokesWorker(t.workerCtx);
    app = createApp(t.ctx, [authRoutes(t.ctx), v3StrokesRoutes(t.ctx, { onPool: (p) => (pool = p) })]);
    headers = (await t.newKey()).headers;
  });
  afterAll(async () => {
    await pool?.close();
    await worker?.close();
    await t?.close();
  });

  const read = async (strokes: Stroke[]) => {
    const body = { strokes: { strokes: { x: strokes.map((s) => s.x), y: strokes.map((s) => s.y) } } };
    const res = await app.request('/v3/strokes', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const json = (await res.json()) as { latex_styled?: string; error?: string; confidence_rate?: number };
    expect(json.error, JSON.stringify(json)).toBeUndefined();
    return json.latex_styled?.replace(/\s/g, '');
  };

  it.each([
    ['2', () => at('2', 0, 0, 40)],
    ['a+1', () => [...at('a', 0, 0, 40), ...at('+', 38, 0, 40), ...at('1', 80, 0, 40)]],
    ['a=b', () => [...at('a', 0, 0, 40), ...at('=', 38, 0, 40), ...at('b', 80, 0, 40)]],
    ['\\frac{a}{b}', () => [...at('a', 8, 0, 40), bar(0, 44, 50), ...at('b', 8, 58, 40)]],
    ['\\sqrt{a}', () => [radical(0, 0, 50, 64), ...at('a', 30, 8, 40)]],
    // The two bars of = drawn shifted and unequal, one with a flick at its end.
    ['a=b', () => [...at('a', 0, 0, 40), bar(40, 64, 14), { x: [46, 56, 66, 69], y: [26, 27, 27, 31] }, ...at('b', 80, 0, 40)]],
    // Read only since issue 17's second round: a radical drawn as a check mark, without a
    // vinculum, with the radicand tucked into it, and a fraction in a numerator (once merged with
    // its bars as Ξ).
    ['\\sqrt{a}', () => [{ x: [0, 8, 22, 90], y: [36, 30, 60, 0] }, ...at('a', 20, 14, 40)]],
    ['\\frac{\\frac{1}{2}}{b}', () => [...at('1', 24, 0, 20), bar(8, 52, 26), ...at('2', 20, 31, 24), bar(0, 60, 60), ...at('b', 14, 68, 40)]],
    // Read only since issue 17's third round: an x drawn as two curves, which the classifier calls
    // \chi, sits on the baseline of its neighbours (χ descends below it), and so is an x.
    ['x+1', () => [...at('x', 0, 0, 40), ...at('+', 38, 0, 40), ...at('1', 80, 0, 40)]],
    ['x^{2}+1', () => [...at('x', 0, 0, 40), ...at('2', 30, -10, 20), ...at('+', 60, 0, 40), ...at('1', 105, 0, 40)]],
    // Read only since issue 17's fourth round (look-alikes weighted by how often they occur in
    // maths): a `1` drawn as a stem with its foot flicked right, once `2+L`; a lone cursive x,
    // with no baseline to judge by, once `\\chi`.
    ['2+1', () => [...at('2', 0, 0, 40), ...at('+', 38, 8, 26), ...at('1 flicked', 74, 0, 40)]],
    ['x', () => at('x', 0, 0, 40)],
  ])('%s', async (latex, strokes) => {
    expect(await read(strokes())).toBe(latex);
  });
});
