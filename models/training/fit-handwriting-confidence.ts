import { readFile, writeFile } from 'node:fs/promises';
import { markdownTable } from '../../worker/engine/math/eval-metrics.js';
import { DEFAULT_RATE_THRESHOLD, FEATURES, HANDWRITING_CONFIDENCE_MODEL_ID, judge } from '../../worker/inference/formula-confidence.js';
import { fitLogistic, rateKnot, reportSection, roundedModel, type Scored } from './fit-formula-confidence.js';
import type { ConfidenceRead } from './formula-confidence-reads.js';
import { HANDWRITING_READS_DIR } from './handwriting-confidence-reads.js';
import { type ManifestEntry, sha256Of, writeManifestEntries } from './manifest-update.js';

/**
 * Fits the handwriting-picture confidence model (worker/inference/formula-confidence.ts,
 * HANDWRITING_CONFIDENCE_MODEL_ID) as fit-formula-confidence.ts fits the formula one — L2 logistic
 * regression of "the /v3/text answer is exactly the expression" on the same evidence features,
 * and the rate knot (the chance confidence_rate 0.75 stands for) set on cross-validated chances so
 * that KEEP of the exact reads clear it — over the calibration reads: pictures of expressions
 * composed of TRAINING writers' drawings (handwriting-confidence-reads.ts --set calibration). The
 * held-out writers' reads (--set heldout) are only reported, in models/eval/HANDWRITING-CONFIDENCE.md.
 * Writes models/handwriting-confidence.json and its manifest entry.
 *
 * Usage: npx tsx models/training/fit-handwriting-confidence.ts   (after both reads runs)
 */

/**
 * Share of the calibration reads' exact reads that confidence_rate 0.75 keeps. As for pen strokes
 * (fit-strokes-confidence.ts), lower than the formula model's 0.96: the classifier was trained on
 * these writers' drawings, so their reads look surer than a new writer's.
 */
const KEEP = 0.9;
const MODEL = 'models/handwriting-confidence.json';
const REPORT = 'models/eval/HANDWRITING-CONFIDENCE.md';

const readsOf = async (set: string): Promise<ConfidenceRead[]> =>
  (await readFile(new URL(`${set}.jsonl`, HANDWRITING_READS_DIR), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ConfidenceRead);

async function main(): Promise<void> {
  const calibration = await readsOf('calibration');
  const heldOut = await readsOf('heldout');
  const fitted = fitLogistic(
    calibration.map((r) => r.features),
    calibration.map((r) => (r.exact ? 1 : 0)),
  );
  const model = roundedModel(fitted, rateKnot(calibration, FEATURES, KEEP));
  await writeFile(MODEL, `${JSON.stringify(model, null, 2)}\n`);
  const judged = (reads: ConfidenceRead[]) => reads.map((r) => ({ exact: r.exact, ...judge(model, r.features) }));
  const held = judged(heldOut);
  const sections: Array<[string, Scored[]]> = [
    ['calibration reads, training writers (fitted on): confidence_rate', judged(calibration).map((r) => ({ exact: r.exact, rate: r.rate }))],
    ['held-out writers, before: confidence_rate = per-symbol rate', heldOut.map((r) => ({ exact: r.exact, rate: r.rate }))],
    ['held-out writers, after: confidence_rate (the chance on the threshold scale)', held.map((r) => ({ exact: r.exact, rate: r.rate }))],
    ['held-out writers, after: confidence (the calibrated chance of an exact read)', held.map((r) => ({ exact: r.exact, rate: r.confidence }))],
  ];
  const body = sections.map(([title, reads]) => reportSection(title, reads));
  const weights = markdownTable(
    ['feature', 'weight (per standard deviation)'],
    FEATURES.map((f, i) => [f, model.weights[i]!.toFixed(3)]),
  );
  const exact = (reads: ConfidenceRead[]) => reads.filter((r) => r.exact).length;
  await writeFile(
    REPORT,
    [
      '# Handwriting-picture confidence calibration',
      '',
      `Written by \`npx tsx models/training/fit-handwriting-confidence.ts\` (method in its header); rate_knot ${model.rate_knot}. Fitted on ${calibration.length} reads (${exact(calibration)} exact) of pictures of expressions composed of training writers' real drawings (folds 1–9; models/training/handwriting-confidence-reads.ts), each read through the /v3/text steps as one formula by the handwriting classifier; reported on the ${heldOut.length} such reads (${exact(heldOut)} exact) of the held-out writers' pictures (fold 0) that models/eval/handwriting-image-run.ts reads. A read counts as exact when the answer's text is exactly the expression after normaliseLatex.`,
      '',
      weights,
      '',
      ...body,
    ].join('\n'),
  );
  const heldExact = held.filter((r) => r.exact);
  const heldWrong = held.filter((r) => !r.exact);
  const entry: ManifestEntry = {
    id: HANDWRITING_CONFIDENCE_MODEL_ID,
    name: 'Folio handwriting-picture confidence (the formula-confidence model form over the same evidence, fitted on reads by the handwriting classifier; the chance the read is exact)',
    version: '1.0.0',
    path: 'handwriting-confidence.json',
    sha256: await sha256Of(MODEL),
    licence:
      'fitted in this repository on reads of pictures of expressions composed of Detexify (ODbL 1.0) and UNIPEN train_r01_v07 drawings of training writers; holds numbers only, no drawing',
    recipe:
      'models/training: handwriting-confidence-reads.ts --set calibration (training writers, folds 1–9, read through the /v3/text steps) + fit-handwriting-confidence.ts (L2 logistic regression, Newton)',
    metrics: `held-out writers' handwritten pictures, confidence_rate_threshold ${DEFAULT_RATE_THRESHOLD}: ${heldExact.filter((r) => r.rate >= DEFAULT_RATE_THRESHOLD).length}/${heldExact.length} exact reads answered, ${heldWrong.filter((r) => r.rate < DEFAULT_RATE_THRESHOLD).length}/${heldWrong.length} wrong ones refused (models/eval/HANDWRITING-CONFIDENCE.md)`,
  };
  await writeManifestEntries([entry]);
  console.log(body.join('\n'));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
