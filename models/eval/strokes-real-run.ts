import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import { recognizeStrokes } from '../../worker/engine/math/strokes/index.js';
import { loadStrokesConfidence, readJudged } from '../../worker/inference/strokes-confidence.js';
import { datasetsPresent } from '../training/strokes-real.js';
import { evaluateRealStrokes, realStrokesMarkdown } from './strokes-real-evaluate.js';

/**
 * The real-ink strokes rows on their own (strokes-real-evaluate.ts): needs the shared data sets.
 *
 * Usage: npx tsx models/eval/strokes-real-run.ts [--symbols N] [--failures K] [--no-regroup]
 */
const { values } = parseArgs({
  options: { symbols: { type: 'string' }, failures: { type: 'string' }, 'no-regroup': { type: 'boolean' }, dump: { type: 'string' } },
});
if (!datasetsPresent()) throw new Error('the shared data sets (FOLIO_DATASETS, default /work/shared/datasets) are not here');
const started = performance.now();
const model = await loadStrokesConfidence();
const regroup = !values['no-regroup'];
const report = await evaluateRealStrokes((s) => readJudged(model, s, { regroup }), normaliseLatex, {
  symbolLimit: values.symbols === undefined ? undefined : Number(values.symbols),
  readSymbol: (s) => recognizeStrokes(s, { regroup }),
});
console.log(realStrokesMarkdown(report));
if (values.dump) writeFileSync(values.dump, JSON.stringify(report.expressions));
for (const r of report.expressions.filter((e) => !e.exact).slice(0, Number(values.failures ?? 0)))
  console.log(`  ${r.id}: ${r.expected}  →  ${r.got}  (rate ${r.rate})`);
console.log(`${((performance.now() - started) / 1000).toFixed(0)} s`);
