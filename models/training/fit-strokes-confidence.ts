import { STROKES_CONFIDENCE_MODEL_ID, STROKES_FEATURES } from '../../worker/inference/strokes-confidence.js';
import { fitConfidence } from './fit-confidence.js';
import { STROKES_READS_DIR, type StrokesConfidenceRead } from './strokes-confidence-reads.js';

/**
 * Fits the pen-strokes confidence model (worker/inference/strokes-confidence.ts) by fit-confidence.ts
 * over the calibration reads: expressions composed of TRAINING writers' drawings
 * (strokes-confidence-reads.ts --set calibration). The held-out writers' reads (--set heldout) are
 * only reported, in models/eval/STROKES-CONFIDENCE.md. Writes models/strokes-confidence.json and its
 * manifest entry.
 *
 * Usage: npx tsx models/training/fit-strokes-confidence.ts   (after both reads runs)
 */

const exact = (reads: StrokesConfidenceRead[]) => reads.filter((r) => r.exact).length;

await fitConfidence<StrokesConfidenceRead>({
  reads: STROKES_READS_DIR,
  features: STROKES_FEATURES,
  // Lower than the formula model's 0.96: the classifier was trained on these writers' drawings, so
  // their reads look surer than a new writer's, and a knot that keeps nearly all of them answers
  // too many wrong reads of new writers.
  keep: 0.9,
  model: 'models/strokes-confidence.json',
  report: 'models/eval/STROKES-CONFIDENCE.md',
  title: 'Pen-strokes confidence calibration',
  intro: (model, calibration, heldOut) =>
    `Written by \`npx tsx models/training/fit-strokes-confidence.ts\` (method in fit-confidence.ts's header); rate_knot ${model.rate_knot}. Fitted on ${calibration.length} reads (${exact(calibration)} exact) of expressions composed of training writers' real drawings (folds 1–9; models/training/strokes-confidence-reads.ts); reported on the ${heldOut.length} expressions of held-out writers (fold 0) that \`make eval-math\` reads (${exact(heldOut)} exact). A read counts as exact when its LaTeX is exactly the expression's after normaliseLatex.`,
  sections: {
    calibration: 'calibration reads, training writers (fitted on): confidence_rate',
    rate: 'held-out writers: confidence_rate (the chance on the threshold scale)',
    confidence: 'held-out writers: confidence (the calibrated chance of an exact read)',
  },
  entry: {
    id: STROKES_CONFIDENCE_MODEL_ID,
    name: 'Folio pen-strokes confidence (logistic model over the evidence of a strokes read: symbol probabilities and margins, rare classes and dot-like marks, strokes per symbol, structure, agreement with a read on geometry grouping alone and with reads of the ink turned ±0.05 rad; the chance the read is exact)',
    version: '1.0.0',
    licence:
      'fitted in this repository on reads of expressions composed of Detexify (ODbL 1.0) and UNIPEN train_r01_v07 drawings of training writers; holds numbers only, no drawing',
    recipe:
      'models/training: strokes-confidence-reads.ts --set calibration (training writers, folds 1–9) + fit-strokes-confidence.ts (L2 logistic regression, Newton)',
    heldOut: "held-out writers' composed expressions",
  },
});
