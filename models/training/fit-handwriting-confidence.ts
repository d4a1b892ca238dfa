import { FEATURES, HANDWRITING_CONFIDENCE_MODEL_ID } from '../../worker/inference/formula-confidence.js';
import { fitConfidence } from './fit-confidence.js';
import type { ConfidenceRead } from './formula-confidence-reads.js';
import { HANDWRITING_READS_DIR } from './handwriting-confidence-reads.js';

/**
 * Fits the handwriting-picture confidence model (worker/inference/formula-confidence.ts,
 * HANDWRITING_CONFIDENCE_MODEL_ID) by fit-confidence.ts on the formula model's evidence features,
 * over the calibration reads: pictures of expressions composed of TRAINING writers' drawings
 * (handwriting-confidence-reads.ts --set calibration). The held-out writers' reads (--set heldout)
 * are only reported, in models/eval/HANDWRITING-CONFIDENCE.md. Writes
 * models/handwriting-confidence.json and its manifest entry.
 *
 * Usage: npx tsx models/training/fit-handwriting-confidence.ts   (after both reads runs)
 */

const exact = (reads: ConfidenceRead[]) => reads.filter((r) => r.exact).length;

await fitConfidence<ConfidenceRead>({
  reads: HANDWRITING_READS_DIR,
  features: FEATURES,
  // As for pen strokes (fit-strokes-confidence.ts), lower than the formula model's 0.96: the
  // classifier was trained on these writers' drawings, so their reads look surer than a new writer's.
  keep: 0.9,
  model: 'models/handwriting-confidence.json',
  report: 'models/eval/HANDWRITING-CONFIDENCE.md',
  title: 'Handwriting-picture confidence calibration',
  intro: (model, calibration, heldOut) =>
    `Written by \`npx tsx models/training/fit-handwriting-confidence.ts\` (method in fit-confidence.ts's header); rate_knot ${model.rate_knot}. Fitted on ${calibration.length} reads (${exact(calibration)} exact) of pictures of expressions composed of training writers' real drawings (folds 1–9; models/training/handwriting-confidence-reads.ts), each read through the /v3/text steps as one formula by the handwriting classifier; reported on the ${heldOut.length} such reads (${exact(heldOut)} exact) of the held-out writers' pictures (fold 0) that models/eval/handwriting-image-run.ts reads. A read counts as exact when the answer's text is exactly the expression after normaliseLatex.`,
  sections: {
    calibration: 'calibration reads, training writers (fitted on): confidence_rate',
    before: 'held-out writers, before: confidence_rate = per-symbol rate',
    rate: 'held-out writers, after: confidence_rate (the chance on the threshold scale)',
    confidence: 'held-out writers, after: confidence (the calibrated chance of an exact read)',
  },
  entry: {
    id: HANDWRITING_CONFIDENCE_MODEL_ID,
    name: 'Folio handwriting-picture confidence (the formula-confidence model form over the same evidence, fitted on reads by the handwriting classifier; the chance the read is exact)',
    version: '1.0.0',
    licence:
      'fitted in this repository on reads of pictures of expressions composed of Detexify (ODbL 1.0) and UNIPEN train_r01_v07 drawings of training writers; holds numbers only, no drawing',
    recipe:
      'models/training: handwriting-confidence-reads.ts --set calibration (training writers, folds 1–9, read through the /v3/text steps) + fit-handwriting-confidence.ts (L2 logistic regression, Newton)',
    heldOut: "held-out writers' handwritten pictures",
  },
});
