import { readFile, writeFile } from 'node:fs/promises';
import { markdownTable } from '../../worker/engine/math/eval-metrics.js';
import { DEFAULT_RATE_THRESHOLD, judge } from '../../worker/inference/formula-confidence.js';
import { STROKES_CONFIDENCE_MODEL_ID, STROKES_FEATURES } from '../../worker/inference/strokes-confidence.js';
import { fitLogistic, rateKnot, reportSection, roundedModel, type Scored } from './fit-formula-confidence.js';
import { type ManifestEntry, sha256Of, writeManifestEntries } from './manifest-update.js';
import { STROKES_READS_DIR, type StrokesConfidenceRead } from './strokes-confidence-reads.js';

/**
 * Fits the pen-strokes confidence model (worker/inference/strokes-confidence.ts) as
 * fit-formula-confidence.ts fits the formula one — L2 logistic regression of "the read is exact"
 * on the evidence features, and the rate knot (the chance confidence_rate 0.75 stands for) set on
 * cross-validated chances so that KEEP of the exact reads clear it — over the calibration reads:
 * expressions composed of TRAINING writers' drawings (strokes-confidence-reads.ts --set
 * calibration). The held-out writers' reads (--set heldout) are only reported, in
 * models/eval/STROKES-CONFIDENCE.md. Writes models/strokes-confidence.json and its manifest entry.
 *
 * Usage: npx tsx models/training/fit-strokes-confidence.ts   (after both reads runs)
 */

/**
 * Share of the calibration reads' exact reads that confidence_rate 0.75 keeps. Lower than the
 * formula model's 0.96: the classifier was trained on these writers' drawings, so their reads look
 * surer than a new writer's, and a knot that keeps nearly all of them answers too many wrong reads
 * of new writers.
 */
const KEEP = 0.9;
const MODEL = 'models/strokes-confidence.json';
const REPORT = 'models/eval/STROKES-CONFIDENCE.md';

const readsOf = async (set: string): Promise<StrokesConfidenceRead[]> =>
  (await readFile(new URL(`${set}.jsonl`, STROKES_READS_DIR), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as StrokesConfidenceRead);

async function main(): Promise<void> {
  const calibration = await readsOf('calibration');
  const heldOut = await readsOf('heldout');
  const fitted = fitLogistic(
    calibration.map((r) => r.features),
    calibration.map((r) => (r.exact ? 1 : 0)),
    STROKES_FEATURES,
  );
  const model = roundedModel(fitted, rateKnot(calibration, STROKES_FEATURES, KEEP));
  await writeFile(MODEL, `${JSON.stringify(model, null, 2)}\n`);
  const judged = (reads: StrokesConfidenceRead[]) => reads.map((r) => ({ exact: r.exact, ...judge(model, r.features) }));
  const held = judged(heldOut);
  const sections: Array<[string, Scored[]]> = [
    ['calibration reads, training writers (fitted on): confidence_rate', judged(calibration).map((r) => ({ exact: r.exact, rate: r.rate }))],
    ['held-out writers: confidence_rate (the chance on the threshold scale)', held.map((r) => ({ exact: r.exact, rate: r.rate }))],
    ['held-out writers: confidence (the calibrated chance of an exact read)', held.map((r) => ({ exact: r.exact, rate: r.confidence }))],
  ];
  const body = sections.map(([title, reads]) => reportSection(title, reads));
  const weights = markdownTable(
    ['feature', 'weight (per standard deviation)'],
    STROKES_FEATURES.map((f, i) => [f, model.weights[i]!.toFixed(3)]),
  );
  const exact = (reads: StrokesConfidenceRead[]) => reads.filter((r) => r.exact).length;
  await writeFile(
    REPORT,
    [
      '# Pen-strokes confidence calibration',
      '',
      `Written by \`npx tsx models/training/fit-strokes-confidence.ts\` (method in its header); rate_knot ${model.rate_knot}. Fitted on ${calibration.length} reads (${exact(calibration)} exact) of expressions composed of training writers' real drawings (folds 1–9; models/training/strokes-confidence-reads.ts); reported on the ${heldOut.length} expressions of held-out writers (fold 0) that \`make eval-math\` reads (${exact(heldOut)} exact). A read counts as exact when its LaTeX is exactly the expression's after normaliseLatex.`,
      '',
      weights,
      '',
      ...body,
    ].join('\n'),
  );
  const heldExact = held.filter((r) => r.exact);
  const heldWrong = held.filter((r) => !r.exact);
  const entry: ManifestEntry = {
    id: STROKES_CONFIDENCE_MODEL_ID,
    name: 'Folio pen-strokes confidence (logistic model over the evidence of a strokes read: symbol probabilities and margins, rare classes and dot-like marks, strokes per symbol, structure, agreement with a read on geometry grouping alone and with reads of the ink turned ±0.05 rad; the chance the read is exact)',
    version: '1.0.0',
    path: 'strokes-confidence.json',
    sha256: await sha256Of(MODEL),
    licence:
      'fitted in this repository on reads of expressions composed of Detexify (ODbL 1.0) and UNIPEN train_r01_v07 drawings of training writers; holds numbers only, no drawing',
    recipe:
      'models/training: strokes-confidence-reads.ts --set calibration (training writers, folds 1–9) + fit-strokes-confidence.ts (L2 logistic regression, Newton)',
    metrics: `held-out writers' composed expressions, confidence_rate_threshold ${DEFAULT_RATE_THRESHOLD}: ${heldExact.filter((r) => r.rate >= DEFAULT_RATE_THRESHOLD).length}/${heldExact.length} exact reads answered, ${heldWrong.filter((r) => r.rate < DEFAULT_RATE_THRESHOLD).length}/${heldWrong.length} wrong ones refused (models/eval/STROKES-CONFIDENCE.md)`,
  };
  await writeManifestEntries([entry]);
  console.log(body.join('\n'));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
