import { mkdir, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import { strokesEvidence, strokesFeatures } from '../../worker/inference/strokes-confidence.js';
import { composedExpressions, writerPool } from '../eval/strokes-real-set.js';
import { EXPRESSIONS } from '../eval/strokes-real-evaluate.js';
import { HELD_OUT_FOLD } from './strokes-real.js';

/**
 * Reads composed handwritten expressions as POST /v3/strokes does (both reads of
 * worker/inference/strokes-confidence.ts) and writes, for each, the evidence features of the read
 * and whether it is exactly the expression (after normaliseLatex):
 *   --set calibration: COUNT expressions composed (strokes-real-set.ts, seed SEED) of the real
 *     drawings of TRAINING writers only (folds 1–9 of Detexify and UNIPEN), the set the model is fitted on;
 *   --set heldout: the evaluation's expressions of held-out writers (fold 0), for the report only.
 *
 * Usage: npx tsx models/training/strokes-confidence-reads.ts --set calibration|heldout [--count 1500]
 * → models/training/data/strokes-confidence/<set>.jsonl
 */

export interface StrokesConfidenceRead {
  id: string;
  exact: boolean;
  features: number[];
  expected: string;
  got: string;
}

const SEED = 7_317;
export const STROKES_READS_DIR = new URL('./data/strokes-confidence/', import.meta.url);

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { set: { type: 'string' }, count: { type: 'string' } } });
  if (values.set !== 'calibration' && values.set !== 'heldout') throw new Error('--set calibration|heldout');
  const expressions =
    values.set === 'calibration'
      ? await composedExpressions(Number(values.count ?? 1500), SEED, await writerPool((f) => f !== HELD_OUT_FOLD))
      : await composedExpressions(EXPRESSIONS);
  const out: StrokesConfidenceRead[] = [];
  const started = performance.now();
  for (const [i, e] of expressions.entries()) {
    const evidence = await strokesEvidence(e.strokes);
    const expected = normaliseLatex(e.latex);
    let got = '';
    try {
      got = normaliseLatex(evidence.first.result.latex);
    } catch {
      // A read the normaliser cannot parse is wrong.
    }
    out.push({ id: e.id, exact: got === expected, features: strokesFeatures(evidence), expected, got });
    if (i % 250 === 0) console.log(`${i}/${expressions.length} ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  await mkdir(STROKES_READS_DIR, { recursive: true });
  const file = new URL(`${values.set}.jsonl`, STROKES_READS_DIR);
  await writeFile(file, out.map((r) => JSON.stringify(r)).join('\n') + '\n');
  console.log(`${out.length} reads, ${out.filter((r) => r.exact).length} exact → ${file.pathname}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
