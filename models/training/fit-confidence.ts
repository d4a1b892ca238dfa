import { readFile, writeFile } from 'node:fs/promises';
import { markdownTable, percent } from '../../worker/engine/math/eval-metrics.js';
import { DEFAULT_RATE_THRESHOLD, exactChance, judge, type FormulaConfidenceModel } from '../../worker/inference/formula-confidence.js';
import { type ManifestEntry, sha256Of, writeManifestEntries } from './manifest-update.js';

/**
 * How Folio's confidence models are fitted (fit-formula-confidence.ts, fit-strokes-confidence.ts,
 * fit-handwriting-confidence.ts say what each one is fitted on): logistic regression with a small
 * L2 penalty, by Newton's method on standardised features, of "the read is exact" on the evidence
 * features of the calibration reads (`<reads>/calibration.jsonl`). The rate knot — the chance that
 * confidence_rate 0.75 stands for — is the chance above which `keep` of the calibration reads'
 * exact reads fall, each judged by a model fitted without its expression (cross-validation). The
 * held-out reads (`<reads>/heldout.jsonl`, never fitted on) are only reported: reliability tables,
 * and at the spec's default confidence_rate_threshold the share of exact reads answered and of
 * wrong reads refused. Writes the model, its manifest entry and the report.
 */

const FOLDS = 5;
const L2 = 1;
const BINS = [0, 0.25, 0.5, 0.75, 0.9, 0.97, 1.0001];

/** What a confidence fit needs of a read: its expression (reads of one expression share an id), exactness and evidence. */
export interface CalibrationRead {
  id: string;
  exact: boolean;
  features: number[];
}

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

export function fitLogistic(x: number[][], y: number[], features: readonly string[]): Omit<FormulaConfidenceModel, 'rate_knot'> {
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
  const answered = exact.filter((r) => r.rate >= DEFAULT_RATE_THRESHOLD).length / Math.max(1, exact.length);
  const refused = wrong.filter((r) => r.rate < DEFAULT_RATE_THRESHOLD).length / Math.max(1, wrong.length);
  return `At confidence_rate_threshold ${DEFAULT_RATE_THRESHOLD}: ${percent(answered)} of ${exact.length} exact reads answered, ${percent(refused)} of ${wrong.length} wrong reads refused.`;
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
 * The chance below which 1 − `keep` of the exact reads fall, each read judged by a model fitted
 * without its formula (FOLDS folds by formula): the knot is set on chances the model did not fit.
 */
export function rateKnot(reads: ReadonlyArray<CalibrationRead>, features: readonly string[], keep: number): number {
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

export interface ConfidenceFit<R extends CalibrationRead> {
  /** Folder (a URL or a path) holding calibration.jsonl and heldout.jsonl. */
  reads: URL | string;
  features: readonly string[];
  /** Share of the calibration reads' exact reads that confidence_rate 0.75 keeps. */
  keep: number;
  /** The model's JSON, relative to the repository root (also the manifest path under models/). */
  model: string;
  /** The report (markdown), relative to the repository root. */
  report: string;
  title: string;
  /** The report's first paragraph, after the model is fitted. */
  intro: (model: FormulaConfidenceModel, calibration: R[], heldOut: R[]) => string;
  /** Report section titles; `before` reports the held-out reads' own `rate` (the read without this model). */
  sections: { calibration: string; before?: string; rate: string; confidence: string };
  /** The manifest entry but its sha256 and metrics; `heldOut` names the held-out reads in the metrics. */
  entry: { id: string; name: string; version: string; licence: string; recipe: string; heldOut: string };
}

const readsOf = async <R>(dir: URL | string, set: string): Promise<R[]> =>
  (await readFile(typeof dir === 'string' ? `${dir}/${set}.jsonl` : new URL(`${set}.jsonl`, dir), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as R);

/** Fits, writes and reports one confidence model (see the header). */
export async function fitConfidence<R extends CalibrationRead & { rate?: number }>(fit: ConfidenceFit<R>): Promise<void> {
  const calibration = await readsOf<R>(fit.reads, 'calibration');
  const heldOut = await readsOf<R>(fit.reads, 'heldout');
  const fitted = fitLogistic(
    calibration.map((r) => r.features),
    calibration.map((r) => (r.exact ? 1 : 0)),
    fit.features,
  );
  const model = roundedModel(fitted, rateKnot(calibration, fit.features, fit.keep));
  await writeFile(fit.model, `${JSON.stringify(model, null, 2)}\n`);
  const judged = (reads: R[]) => reads.map((r) => ({ exact: r.exact, ...judge(model, r.features) }));
  const held = judged(heldOut);
  const sections: Array<[string, Scored[]]> = [
    [fit.sections.calibration, judged(calibration).map((r) => ({ exact: r.exact, rate: r.rate }))],
    ...(fit.sections.before ? [[fit.sections.before, heldOut.map((r) => ({ exact: r.exact, rate: r.rate ?? 0 }))] as [string, Scored[]]] : []),
    [fit.sections.rate, held.map((r) => ({ exact: r.exact, rate: r.rate }))],
    [fit.sections.confidence, held.map((r) => ({ exact: r.exact, rate: r.confidence }))],
  ];
  const body = sections.map(([title, reads]) => reportSection(title, reads));
  const weights = markdownTable(
    ['feature', 'weight (per standard deviation)'],
    fit.features.map((f, i) => [f, model.weights[i]!.toFixed(3)]),
  );
  await writeFile(fit.report, [`# ${fit.title}`, '', fit.intro(model, calibration, heldOut), '', weights, '', ...body].join('\n'));
  const answered = held.filter((r) => r.exact && r.rate >= DEFAULT_RATE_THRESHOLD).length;
  const refused = held.filter((r) => !r.exact && r.rate < DEFAULT_RATE_THRESHOLD).length;
  const exact = held.filter((r) => r.exact).length;
  const { id, name, version, licence, recipe, heldOut: heldOutName } = fit.entry;
  const entry: ManifestEntry = {
    id,
    name,
    version,
    path: fit.model.replace(/^models\//, ''),
    sha256: await sha256Of(fit.model),
    licence,
    recipe,
    metrics: `${heldOutName}, confidence_rate_threshold ${DEFAULT_RATE_THRESHOLD}: ${answered}/${exact} exact reads answered, ${refused}/${held.length - exact} wrong ones refused (${fit.report})`,
  };
  await writeManifestEntries([entry]);
  console.log(body.join('\n'));
}
