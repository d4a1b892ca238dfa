import { mkdir, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import { handwrittenImages } from '../eval/handwriting-image-set.js';
import { writerPool } from '../eval/strokes-real-set.js';
import type { ConfidenceRead } from './formula-confidence-reads.js';
import { HELD_OUT_FOLD } from './strokes-real.js';
import { textRouteReader } from './text-route-read.js';

/**
 * Reads pictures of handwritten expressions as `POST /v3/text` does with default options
 * (text-route-read.ts) and writes, for each picture read as one formula by the handwriting
 * classifier, the evidence features of that read (worker/inference/formula-confidence.ts),
 * whether the answer is exactly the expression, and its per-symbol rate (its confidence_rate
 * before the handwriting-confidence model):
 *   --set calibration: COUNT expressions composed (strokes-real-set.ts, seed SEED) of the real
 *     drawings of TRAINING writers only (folds 1–9 of Detexify and UNIPEN), drawn as ink
 *     (handwriting-image-set.ts): the set the model is fitted on;
 *   --set heldout: the held-out writers' pictures that models/eval/handwriting-image-run.ts reads, for the report only.
 *
 * Usage: npx tsx models/training/handwriting-confidence-reads.ts --set calibration|heldout [--count 600]
 * → models/training/data/handwriting-confidence/<set>.jsonl
 */

const SEED = 9_203;
export const HANDWRITING_READS_DIR = new URL('./data/handwriting-confidence/', import.meta.url);

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { set: { type: 'string' }, count: { type: 'string' } } });
  if (values.set !== 'calibration' && values.set !== 'heldout') throw new Error('--set calibration|heldout');
  const images =
    values.set === 'calibration'
      ? await handwrittenImages(Number(values.count ?? 600), SEED, await writerPool((f) => f !== HELD_OUT_FOLD))
      : await handwrittenImages(Number(values.count ?? 120));
  const read = await textRouteReader();
  const out: ConfidenceRead[] = [];
  const started = performance.now();
  for (const [i, item] of images.entries()) {
    const { page, got, handwritten } = await read(item.image);
    // One maths line read by the handwriting classifier, with its evidence: that read is the answer.
    const maths = page.lines.filter((l) => l.math);
    if (maths.length !== 1 || handwritten.length !== 1) continue;
    const expected = normaliseLatex(item.latex);
    out.push({
      id: item.id,
      dpi: 0,
      exact: got === expected,
      single: page.formula !== undefined,
      rate: maths[0]!.math!.confidenceRate,
      features: handwritten[0]!,
      expected,
      got,
    });
    if (i % 50 === 0) console.log(`${i}/${images.length} ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  await mkdir(HANDWRITING_READS_DIR, { recursive: true });
  const file = new URL(`${values.set}.jsonl`, HANDWRITING_READS_DIR);
  await writeFile(file, out.map((r) => JSON.stringify(r)).join('\n') + '\n');
  console.log(`${images.length} pictures, ${out.length} read as one handwritten formula, ${out.filter((r) => r.exact).length} exact → ${file.pathname}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
