import { mkdir, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import type { Formula } from '../eval/corpus.js';
import { readCorpus } from '../eval/corpus.js';
import { readPgm } from '../eval/pgm.js';
import { renderCorpus, type Dpi } from '../eval/render.js';
import { calibrationFormulas } from './calibration-formulas.js';
import { textRouteReader } from './text-route-read.js';

/**
 * Reads formula images as `POST /v3/text` does with default options (text-route-read.ts) and
 * writes, for each image read as one formula, the evidence features of that read
 * (worker/inference/formula-confidence.ts), whether the answer is exactly the formula, and the
 * per-symbol rate that was its confidence_rate before the formula-confidence model.
 *
 *   --set calibration: the generated calibration formulas (calibration-formulas.ts), 150 and 300 dpi;
 *   --set heldout: the held-out evaluation formulas (models/eval/formulas.tsv), 150 dpi, for the report only.
 *
 * Usage: npx tsx models/training/formula-confidence-reads.ts --set calibration|heldout [--count 600]
 * → models/training/data/formula-confidence/<set>.jsonl
 */

export interface ConfidenceRead {
  id: string;
  dpi: number;
  /** The answer's text is exactly the formula (after normaliseLatex). */
  exact: boolean;
  /** The image was read as one formula (the answer's confidence is that formula's). */
  single: boolean;
  /** The read's per-symbol rate: its confidence_rate without the formula-confidence model. */
  rate: number;
  features: number[];
  expected: string;
  got: string;
}

export const READS_DIR = new URL('data/formula-confidence/', import.meta.url);

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { set: { type: 'string' }, count: { type: 'string', default: '600' } } });
  const corpus = await readCorpus(new URL('../eval/formulas.tsv', import.meta.url).pathname);
  let formulas: Formula[];
  let dpis: Dpi[];
  let cache: string;
  if (values.set === 'calibration') {
    formulas = calibrationFormulas(
      Number(values.count),
      corpus.formulas.map((f) => f.latex),
      normaliseLatex,
    );
    dpis = [150, 300];
    cache = new URL('data/formula-confidence/render', import.meta.url).pathname;
  } else if (values.set === 'heldout') {
    formulas = corpus.formulas;
    dpis = [150];
    cache = new URL('../eval/.cache', import.meta.url).pathname;
  } else throw new Error('--set must be calibration or heldout');
  const rendered = await renderCorpus(formulas, cache);

  const read = await textRouteReader();
  const out: ConfidenceRead[] = [];
  const started = performance.now();
  for (const dpi of dpis) {
    for (const [i, item] of rendered.formulas.entries()) {
      const { page, got, printed: evidence } = await read(await readPgm(item.crops[dpi].path));
      const expected = normaliseLatex(item.formula.latex);
      // One maths line read with its evidence: the image was one formula, and that is its read.
      if (page.lines.filter((l) => l.math).length !== 1 || evidence.length !== 1) continue;
      out.push({
        id: item.formula.id,
        dpi,
        exact: got === expected,
        single: page.formula !== undefined,
        rate: page.lines.find((l) => l.math)!.math!.confidenceRate,
        features: evidence[0]!,
        expected,
        got,
      });
      if (i % 50 === 0) console.log(`${dpi} dpi ${i}/${rendered.formulas.length} ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
  }
  await mkdir(READS_DIR, { recursive: true });
  await writeFile(new URL(`${values.set}.jsonl`, READS_DIR), out.map((r) => JSON.stringify(r)).join('\n') + '\n');
  console.log(`${out.length} reads, ${out.filter((r) => r.exact).length} exact → ${new URL(`${values.set}.jsonl`, READS_DIR).pathname}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
