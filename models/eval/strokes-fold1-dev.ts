import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import { readStrokes } from '../../worker/engine/math/strokes/index.js';
import { loadStrokesConfidence, readJudged } from '../../worker/inference/strokes-confidence.js';
import { datasetsPresent } from '../training/strokes-real.js';
import { composedBy, composedExpressions, writerPool, type Composer, type Piece } from './strokes-real-set.js';

/**
 * The development set of the strokes engine: writers of training fold 1 (never fold 0, the held-out
 * writers the evaluation reports on). Reads, at default options (confidence_rate_threshold 0.75):
 * - 300 composed expressions (strokes-real-set.ts, seed 4242, as the sixth to eleventh rounds);
 * - `2+1` and `x+1` written by each fold-1 writer with three seeds (the small operators of
 *   models/training/README.md's eleventh round), with what the engine made of each `+`.
 *
 * Usage: npx tsx models/eval/strokes-fold1-dev.ts [--dump file.json] [--failures K]
 */
const { values } = parseArgs({ options: { dump: { type: 'string' }, failures: { type: 'string' } } });
if (!datasetsPresent()) throw new Error('the shared data sets (FOLIO_DATASETS, default /work/shared/datasets) are not here');
const DEV_FOLD = 1;
const SEED = 4242;
const SMALL_SEEDS = [17_000, 27_000, 37_000];
const THRESHOLD = 0.75;
const SMALL: Array<{ latex: string; build: (c: Composer) => Piece | undefined }> = [
  { latex: '2+1', build: (c) => c.row([c.symbol('2'), c.symbol('+'), c.symbol('1')]) },
  { latex: 'x+1', build: (c) => c.row([c.symbol('x'), c.symbol('+'), c.symbol('1')]) },
];

const started = performance.now();
const model = await loadStrokesConfidence();
const pool = await writerPool((f) => f === DEV_FOLD);
const rows: Array<{ set: string; id: string; expected: string; got: string; rate: number; plus?: string }> = [];

for (const e of await composedExpressions(300, SEED, pool)) {
  const { result, rate } = await readJudged(model, e.strokes);
  rows.push({ set: 'composed', id: e.id, expected: normaliseLatex(e.latex), got: normaliseLatex(result.latex), rate });
}
for (const { latex, build } of SMALL) {
  for (const [k, writer] of pool.writers.entries()) {
    for (const seed of SMALL_SEEDS) {
      const drawn = composedBy(pool, writer, seed + k, build);
      if (!drawn) continue;
      const { result, rate } = await readJudged(model, drawn.strokes);
      const { symbols } = await readStrokes(drawn.strokes);
      const middle = [...symbols].sort((a, b) => a.box.x0 - b.box.x0)[1];
      const plus =
        middle &&
        `${middle.latex} ${middle.confidence.toFixed(2)} [${(middle.alternatives ?? []).map((a) => `${a.latex} ${a.confidence.toFixed(2)}`).join(', ')}]`;
      rows.push({ set: latex, id: drawn.id, expected: normaliseLatex(drawn.latex), got: normaliseLatex(result.latex), rate, plus });
    }
  }
}

for (const set of ['composed', ...SMALL.map((s) => s.latex)]) {
  const mine = rows.filter((r) => r.set === set);
  const exact = mine.filter((r) => r.got === r.expected);
  const answered = mine.filter((r) => r.rate >= THRESHOLD);
  const right = answered.filter((r) => r.got === r.expected).length;
  console.log(`${set}: ${mine.length} reads, ${exact.length} exact, ${right} exact and answered, ${answered.length - right} wrong and answered`);
}
const pluses = rows.filter((r) => r.plus);
const weak = pluses.filter((r) => !r.plus!.startsWith('+ ') || Number(r.plus!.split(' ')[1]) < 0.7);
console.log(`+ of 2+1 / x+1: ${weak.length} of ${pluses.length} under 0.7 or misread`);
for (const r of weak) console.log(`  ${r.id} ${r.set}: ${r.plus}  → ${r.got} (rate ${r.rate.toFixed(2)})`);
for (const r of rows.filter((r) => r.set === 'composed' && r.got !== r.expected).slice(0, Number(values.failures ?? 0)))
  console.log(`  ${r.id}: ${r.expected}  →  ${r.got}  (rate ${r.rate.toFixed(2)})`);
if (values.dump) writeFileSync(values.dump, JSON.stringify(rows, null, 1));
console.log(`${((performance.now() - started) / 1000).toFixed(0)} s`);
