/**
 * Single formula → LaTeX: the held-out corpus of `make eval-math` (models/eval: 331 formulas
 * typeset by pdflatex in Computer Modern, a renderer the classifiers never trained on), through
 * each front end. Per row: exact-match rate and normalised edit distance under normaliseLatex,
 * median and p99 milliseconds per formula. The reference in the same run is the PDF-glyph front
 * end, which reads the same formulas from the PDF's own glyphs: the image rows' ratio to its
 * exact-match rate is what rasterising costs.
 */
import { fileURLToPath } from 'node:url';
import { quantile, summarise } from '../worker/engine/math/eval-metrics.js';
import { CATEGORIES, readCorpus } from '../models/eval/corpus.js';
import { evaluateFrontEnds } from '../models/eval/evaluation.js';
import { renderCorpus } from '../models/eval/render.js';

const evalFile = (file: string) => fileURLToPath(new URL(`../models/eval/${file}`, import.meta.url));
const r3 = (x: number) => Math.round(x * 1000) / 1000;

export async function benchMathFormulas(): Promise<Record<string, unknown>> {
  const corpus = await readCorpus(evalFile('formulas.tsv'));
  const rendered = await renderCorpus(corpus.formulas, evalFile('.cache'));
  const evaluations = await evaluateFrontEnds(rendered, corpus.formulas);
  const reference = evaluations.find((e) => e.frontEnd === 'PDF glyphs');
  const referenceRate = reference && !reference.unavailable ? summarise(reference.rows, CATEGORIES).exactRate : Number.NaN;
  return {
    formulas: corpus.formulas.length,
    front_ends: evaluations.map((e) => {
      if (e.unavailable) return { front_end: e.frontEnd, unavailable: e.unavailable };
      const s = summarise(e.rows, CATEGORIES);
      const timings = e.rows.filter((r) => r.error === undefined).map((r) => r.ms);
      return {
        front_end: e.frontEnd,
        exact_match: r3(s.exactRate),
        ratio_to_pdf_glyphs: r3(s.exactRate / referenceRate),
        mean_edit_distance: r3(s.meanDistance),
        median_ms: Math.round(s.medianMs * 10) / 10,
        p99_ms: Math.round(quantile(timings, 0.99) * 10) / 10,
        errors: s.errors,
      };
    }),
  };
}
