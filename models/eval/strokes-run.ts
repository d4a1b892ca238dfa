import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isExact, quantile } from '../../worker/engine/math/eval-metrics.js';
import { parseLayout } from '../../worker/engine/math/layout/index.js';
import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import { recognizeStrokes } from '../../worker/engine/math/strokes/index.js';
import { CATEGORIES, readCorpus } from './corpus.js';
import { evaluateStrokes } from './strokes-evaluate.js';
import { handwritingSet } from './strokes-set.js';

/**
 * The strokes row on its own: builds (or reads from .cache) the synthetic handwriting set of the
 * held-out corpus, recognises it, and prints exact match, symbol accuracy and time per expression.
 *
 * Usage: npx tsx models/eval/strokes-run.ts [--limit N] [--failures K]
 */

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

const { values } = parseArgs({ options: { limit: { type: 'string' }, failures: { type: 'string' } } });
const corpus = await readCorpus(here('formulas.tsv'));
const formulas = corpus.formulas.slice(0, values.limit === undefined ? undefined : Number(values.limit));
const set = await handwritingSet(formulas, here('.cache'));
console.log(`handwriting set: ${set.formulas.length} formulas, ${set.fromCache ? 'from cache' : 'built'} (${set.recipe}) at ${set.path}`);
// Loads the classifier before timing starts, so the first row does not carry the model load.
await recognizeStrokes([{ x: [0, 10], y: [0, 10] }]);
const evaluation = await evaluateStrokes(set, { normaliseLatex, parseLayout }, (strokes) => recognizeStrokes(strokes));

const rows = evaluation.rows;
const rate = (n: number, d: number) => `${((100 * n) / Math.max(d, 1)).toFixed(1)} %`;
console.log(`exact match: ${rate(rows.filter(isExact).length, rows.length)} (${rows.filter(isExact).length}/${rows.length})`);
for (const category of CATEGORIES) {
  const mine = rows.filter((r) => r.category === category);
  if (mine.length) console.log(`  ${category}: ${rate(mine.filter(isExact).length, mine.length)} of ${mine.length}`);
}
const s = evaluation.symbols!;
console.log(`symbols: ${rate(s.agreed, s.truth)} read right, ${rate(s.matched, s.truth)} aligned (${s.truth} symbols)`);
const ms = rows.filter((r) => !r.error).map((r) => r.ms);
console.log(`ms per expression: median ${quantile(ms, 0.5).toFixed(1)}, p90 ${quantile(ms, 0.9).toFixed(1)}`);
const top = Object.entries(s.confusions)
  .sort((a, b) => b[1] - a[1])
  .slice(0, 20);
console.log(`commonest confusions: ${top.map(([k, n]) => `${k} (${n})`).join(', ')}`);
for (const r of rows.filter((row) => !isExact(row)).slice(0, Number(values.failures ?? 0)))
  console.log(`  ${r.id}: ${r.expected}  →  ${r.got}${r.error ? `  [${r.error}]` : ''}`);
