import { readFile, writeFile } from 'node:fs/promises';
import { markdownTable, percent } from '../../worker/engine/math/eval-metrics.js';
import { DEFAULT_RATE_THRESHOLD, exactChance, FEATURES, judge, type FormulaConfidenceModel } from '../../worker/inference/formula-confidence.js';
import type { ConfidenceRead } from './formula-confidence-reads.js';
import { type ManifestEntry, sha256Of, writeManifestEntries } from './manifest-update.js';

/**
 * Fits the formula-image confidence model (worker/inference/formula-confidence.ts): logistic
 * regression with a small L2 penalty, by Newton's method on standardised features, of "the
 * /v3/text answer is exactly the formula" on the evidence features of the read, over the
 * calibration reads (formula-confidence-reads.ts --set calibration: generated formulas, 150 and
 * 300 dpi). The rate knot — the chance that confidence_rate 0.75 stands for — is the chance above
 * which KEEP of the calibration set's exact reads fall, each judged by a model fitted without its
 * formula (cross-validation). It writes models/formula-confidence.json and its manifest entry,
 * then reports on the held-out evaluation reads (--set heldout; never used to fit) in
 * models/eval/CONFIDENCE.md: reliability tables, and at the spec's default
 * confidence_rate_threshold the share of exact reads answered and of wrong reads refused, before
 * (the per-symbol rate) and after.
 *
 * Usage: npx tsx models/training/fit-formula-confidence.ts   (after both reads runs)
 */

const THRESHOLD = DEFAULT_RATE_THRESHOLD;
/** Share of the calibration set's exact reads that confidence_rate 0.75 keeps. */
const KEEP = 0.96;
const FOLDS = 5;
const L2 = 1;
const BINS = [0, 0.25, 0.5, 0.75, 0.9, 0.97, 1.0001];
const MODEL = 'models/formula-confidence.json';
const REPORT = 'models/eval/CONFIDENCE.md';

const readsOf = async (set: string): Promise<ConfidenceRead[]> =>
  (await readFile(`models/training/data/formula-confidence/${set}.jsonl`, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ConfidenceRead);

/** Solves a·x = b (Gaussian elimination with partial pivoting; a is small and positive definite). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    const p = m.reduce((best, row, r) => (r >= c && Math.abs(row[c]!) > Math.abs(m[best]![c]!) ? r : best), c);
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) x[r] = (m[r]![n]! - m[r]!.slice(r + 1, n).reduce((s, v, k) => s + v * x[r + 1 + k]!, 0)) / m[r]![r]!;
  return x;
}

export function fitLogistic(x: number[][], y: number[], features: readonly string[] = FEATURES): Omit<FormulaConfidenceModel, 'rate_knot'> {
  const d = x[0]!.length;
  const mean = Array.from({ length: d }, (_, j) => x.reduce((s, r) => s + r[j]!, 0) / x.length);
  const scale = mean.map((m, j) => Math.sqrt(x.reduce((s, r) => s + (r[j]! - m) ** 2, 0) / x.length) || 1);
  const z = x.map((r) => [1, ...r.map((v, j) => (v - mean[j]!) / scale[j]!)]);
  let w = new Array<number>(d + 1).fill(0);
  for (let iteration = 0; iteration < 50; iteration++) {
    const p = z.map((r) => 1 / (1 + Math.exp(-r.reduce((s, v, j) => s + v * w[j]!, 0))));
    const gradient = w.map((wj, j) => z.reduce((s, r, i) => s + (p[i]! - y[i]!) * r[j]!, 0) + (j ? L2 * wj : 0));
    const hessian = w.map((_, j) => w.map((__, k) => z.reduce((s, r, i) => s + p[i]! * (1 - p[i]!) * r[j]! * r[k]!, 0) + (j && j === k ? L2 : 0)));
    const step = solve(hessian, gradient);
    w = w.map((wj, j) => wj - step[j]!);
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  return { features: [...features], mean, scale, weights: w.slice(1), bias: w[0]! };
}

export interface Scored {
  exact: boolean;
  rate: number;
}

export function reliability(reads: Scored[]): string {
  const rows = BINS.slice(0, -1).map((low, i) => {
    const high = BINS[i + 1]!;
    const inBin = reads.filter((r) => r.rate >= low && r.rate < high);
    const mean = inBin.reduce((s, r) => s + r.rate, 0) / Math.max(1, inBin.length);
    return [
      `${low.toFixed(2)}–${Math.min(1, high).toFixed(2)}`,
      String(inBin.length),
      inBin.length ? mean.toFixed(3) : '–',
      inBin.length ? percent(inBin.filter((r) => r.exact).length / inBin.length) : '–',
    ];
  });
  return markdownTable(['confidence_rate', 'reads', 'mean rate', 'exact'], rows);
}

export function atThreshold(reads: Scored[]): string {
  const exact = reads.filter((r) => r.exact);
  const wrong = reads.filter((r) => !r.exact);
  const answered = exact.filter((r) => r.rate >= THRESHOLD).length / Math.max(1, exact.length);
  const refused = wrong.filter((r) => r.rate < THRESHOLD).length / Math.max(1, wrong.length);
  return `At confidence_rate_threshold ${THRESHOLD}: ${percent(answered)} of ${exact.length} exact reads answered, ${percent(refused)} of ${wrong.length} wrong reads refused.`;
}

/** The chance that an exact read scores above a wrong one (ties count half). */
export function auc(reads: Scored[]): number {
  const exact = reads.filter((r) => r.exact).map((r) => r.rate);
  const wrong = reads.filter((r) => !r.exact).map((r) => r.rate);
  let wins = 0;
  for (const e of exact) for (const w of wrong) wins += e > w ? 1 : e === w ? 0.5 : 0;
  return wins / Math.max(1, exact.length * wrong.length);
}

/** Mean log loss: how well the numbers are calibrated, not only ranked. */
export const logLoss = (reads: Scored[]) =>
  reads.reduce((s, r) => s - Math.log(Math.min(1 - 1e-9, Math.max(1e-9, r.exact ? r.rate : 1 - r.rate))), 0) / reads.length;

/**
 * The chance below which 1 − KEEP of the exact reads fall, each read judged by a model fitted
 * without its formula (FOLDS folds by formula): the knot is set on chances the model did not fit.
 */
export function rateKnot(reads: ReadonlyArray<Pick<ConfidenceRead, 'id' | 'exact' | 'features'>>, features: readonly string[] = FEATURES, keep = KEEP): number {
  const ids = [...new Set(reads.map((r) => r.id))];
  const chances: number[] = [];
  for (let k = 0; k < FOLDS; k++) {
    const held = new Set(ids.filter((_, i) => i % FOLDS === k));
    const train = reads.filter((r) => !held.has(r.id));
    const model = fitLogistic(
      train.map((r) => r.features),
      train.map((r) => (r.exact ? 1 : 0)),
      features,
    );
    chances.push(...reads.filter((r) => held.has(r.id) && r.exact).map((r) => exactChance({ ...model, rate_knot: 0.5 }, r.features)));
  }
  chances.sort((a, b) => a - b);
  return chances[Math.floor((1 - keep) * chances.length)]!;
}

async function main(): Promise<void> {
  const calibration = await readsOf('calibration');
  const heldOut = await readsOf('heldout');
  const fitted = fitLogistic(
    calibration.map((r) => r.features),
    calibration.map((r) => (r.exact ? 1 : 0)),
  );
  const model = roundedModel(fitted, rateKnot(calibration));
  await writeFile(MODEL, `${JSON.stringify(model, null, 2)}\n`);
  const judged = (reads: ConfidenceRead[]) => reads.map((r) => ({ exact: r.exact, ...judge(model, r.features) }));
  const held = judged(heldOut);
  const sections = [
    ['calibration reads (fitted on): confidence_rate', judged(calibration).map((r) => ({ exact: r.exact, rate: r.rate }))],
    ['held-out formulas, 150 dpi, before: confidence_rate = per-symbol rate (CONFIDENCE_EXPONENT)', heldOut.map((r) => ({ exact: r.exact, rate: r.rate }))],
    ['held-out formulas, 150 dpi, after: confidence_rate (the chance on the threshold scale)', held.map((r) => ({ exact: r.exact, rate: r.rate }))],
    ['held-out formulas, 150 dpi, after: confidence (the calibrated chance of an exact read)', held.map((r) => ({ exact: r.exact, rate: r.confidence }))],
  ] as const;
  const body = sections.map(([title, reads]) => reportSection(title, reads));
  const weights = markdownTable(
    ['feature', 'weight (per standard deviation)'],
    FEATURES.map((f, i) => [f, model.weights[i]!.toFixed(3)]),
  );
  const exact = calibration.filter((r) => r.exact).length;
  await writeFile(
    REPORT,
    [
      '# Formula-image confidence calibration',
      '',
      `Written by \`npx tsx models/training/fit-formula-confidence.ts\` (method in its header); rate_knot ${model.rate_knot}. Fitted on ${calibration.length} calibration reads (${exact} exact) of generated formulas (models/training/calibration-formulas.ts, 150 and 300 dpi), none of them a held-out formula; reported on the ${heldOut.length} held-out formulas read as one formula through the /v3/text steps at 150 dpi (models/eval/formulas.tsv). A read counts as exact when the answer's text is exactly the formula after normaliseLatex.`,
      '',
      weights,
      '',
      ...body,
    ].join('\n'),
  );
  const entry: ManifestEntry = {
    id: 'formula-confidence',
    name: 'Folio formula-image confidence (logistic model over the evidence of a read: symbol probabilities and margins, size, structure, a second reading at twice the size, text-model agreement; the chance the read is exact)',
    version: '1.0.0',
    path: 'formula-confidence.json',
    sha256: await sha256Of(MODEL),
    licence: 'fitted in this repository on formulas it generated and rendered with pdflatex (Computer Modern)',
    recipe:
      'models/training: formula-confidence-reads.ts --set calibration (generated formulas, calibration-formulas.ts, read through the /v3/text steps) + fit-formula-confidence.ts (L2 logistic regression, Newton)',
    metrics: `held-out formulas at 150 dpi, confidence_rate_threshold ${THRESHOLD}: ${held.filter((r) => r.exact && r.rate >= THRESHOLD).length}/${held.filter((r) => r.exact).length} exact reads answered, ${held.filter((r) => !r.exact && r.rate < THRESHOLD).length}/${held.filter((r) => !r.exact).length} wrong ones refused (models/eval/CONFIDENCE.md)`,
  };
  await writeManifestEntries([entry]);
  console.log(body.join('\n'));
}

export const round = (v: number) => Math.round(v * 1e6) / 1e6;

/** The fitted model as shipped: numbers rounded to six places, with its rate knot. */
export const roundedModel = (fitted: Omit<FormulaConfidenceModel, 'rate_knot'>, knot: number): FormulaConfidenceModel => ({
  features: fitted.features,
  mean: fitted.mean.map(round),
  scale: fitted.scale.map(round),
  weights: fitted.weights.map(round),
  bias: round(fitted.bias),
  rate_knot: round(knot),
});

/** One section of a calibration report: the threshold line, log loss, AUC and the reliability table. */
export const reportSection = (title: string, reads: Scored[]): string =>
  `## ${title}\n\n${atThreshold(reads)} Log loss ${logLoss(reads).toFixed(3)}; ranking AUC ${auc(reads).toFixed(3)}.\n\n${reliability(reads)}\n`;

if (import.meta.url === `file://${process.argv[1]}`) await main();
