import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import { recognizeStrokes } from '../../worker/engine/math/strokes/index.js';
import { composedExpressions } from './strokes-real-set.js';

/**
 * Fits worker/engine/math/strokes/calibration.ts's RATE_KNOTS: composes CALIBRATION expressions of
 * the held-out writers with another seed than the evaluation's, reads them, and fits exactness
 * against the least symbol confidence with pool-adjacent-violators (monotone), printed as knots.
 *
 * Usage: npx tsx models/eval/strokes-calibrate.ts
 */
const CALIBRATION = 300;
const SEED = 4_242;
const points: Array<[number, number]> = [];
for (const e of await composedExpressions(CALIBRATION, SEED)) {
  const read = await recognizeStrokes(e.strokes);
  const least = read.boxes.length ? Math.min(...read.boxes.map((b) => b.confidence)) : 0;
  points.push([least, normaliseLatex(read.latex) === normaliseLatex(e.latex) ? 1 : 0]);
}
points.sort((a, b) => a[0] - b[0]);
// Pool adjacent violators: blocks of (sum x, sum y, n) merged while their means decrease.
const blocks: Array<{ x: number; y: number; n: number }> = [];
for (const [x, y] of points) {
  blocks.push({ x, y, n: 1 });
  while (blocks.length > 1 && blocks.at(-2)!.y / blocks.at(-2)!.n >= blocks.at(-1)!.y / blocks.at(-1)!.n) {
    const last = blocks.pop()!;
    const prev = blocks.at(-1)!;
    ((prev.x += last.x), (prev.y += last.y), (prev.n += last.n));
  }
}
const knots = [
  [0, 0],
  ...blocks.map((b) => [Math.round((1000 * b.x) / b.n) / 1000, Math.round((1000 * b.y) / b.n) / 1000]),
  [1, Math.max(...blocks.map((b) => b.y / b.n))],
];
console.log(`${points.length} expressions, ${points.filter((p) => p[1]).length} exact`);
console.log(`export const RATE_KNOTS: ReadonlyArray<readonly [number, number]> = ${JSON.stringify(knots)};`);
