import { z } from 'zod';
import { groupEnd } from '../../page/render/latex-formats.js';
import { levenshtein, normalisedEditDistance } from '../engine/math/eval-metrics.js';
import { loadModelFile } from '../engine/models.js';
import { RULE, type MathResult, type MathSymbol } from '../engine/math/types.js';

/**
 * The chance that a printed formula image was read exactly, from evidence of the read: a logistic
 * model over FEATURES (below), fitted offline on rendered formulas disjoint from the held-out
 * evaluation set (models/training/fit-formula-confidence.ts; its parameters ship as
 * models/formula-confidence.json, checked against models/manifest.json).
 * - `confidence` is that chance (the spec's "probability that the output is entirely correct");
 * - `rate`, the confidence_rate, is the same chance on the scale the spec's default
 *   confidence_rate_threshold (0.75) is read on: a monotone map that puts 0.75 at `rate_knot`, the
 *   chance above which the calibration set's exact reads fell 96 % of the time (linear on each side).
 *   Ranking is the model's; the knot sets which reads 0.75 answers.
 */

export const FORMULA_CONFIDENCE_MODEL_ID = 'formula-confidence';
/**
 * The same model form over the same FEATURES, fitted on pictures of handwriting read by the
 * handwriting classifier (its probabilities are another scale than the typeset classifier's):
 * models/training/fit-handwriting-confidence.ts, models/handwriting-confidence.json.
 */
export const HANDWRITING_CONFIDENCE_MODEL_ID = 'handwriting-confidence';

/** What a read leaves to judge it by. */
export interface FormulaEvidence {
  /** The symbols the image front end found, with the classifier's own probabilities and runner-ups. */
  symbols: MathSymbol[];
  /** The parse of those symbols. */
  result: MathResult;
  /** What the text model read on the same ink ('' when it read nothing). */
  text: string;
  /** The same image read again at SECOND_READ_SCALE times its size. */
  second: MathResult;
}

/** A second reading of the image at twice its size: a read that changes with the scale is seldom right. */
export const SECOND_READ_SCALE = 2;

/** The features, in the order the model's weights are listed. */
export const FEATURES = [
  'mean_log_p', // mean log probability of the classified symbols (rules count as sure)
  'min_log_p', // the least sure symbol
  'second_min_log_p', // the next least sure
  'unsure_share', // share of symbols under probability 0.9
  'mean_margin', // mean gap between a symbol's probability and its runner-up's
  'min_margin', // the smallest such gap
  'log_symbols', // ln(1 + number of symbols parsed)
  'text_agreement', // how far the text read agrees with the maths read's visible characters (0..1)
  'text_read', // 1 when the text model read anything on the ink
  'structure', // fractions, radicals, scripts, big operators, arrays in the LaTeX (count, capped at 6, / 6)
  'second_read_same', // 1 when the second reading gave the same LaTeX
  'second_read_agreement', // 1 − the token edit distance between the two readings over the longer
] as const;

const ModelSchema = z.object({
  features: z.array(z.string()),
  mean: z.array(z.number()),
  scale: z.array(z.number()),
  weights: z.array(z.number()),
  bias: z.number(),
  /** The chance that confidence_rate 0.75 stands for. */
  rate_knot: z.number().gt(0).lt(1),
});
export type FormulaConfidenceModel = z.infer<typeof ModelSchema>;

const LOG_FLOOR = Math.log(1e-4);
const logOf = (p: number) => Math.max(LOG_FLOOR, Math.log(Math.max(p, 1e-12)));

export function formulaFeatures({ symbols, result, text, second }: FormulaEvidence): number[] {
  return [
    ...symbolScores(symbols),
    Math.log(1 + result.boxes.length),
    textAgreement(result.latex, text),
    visibleText(text).length ? 1 : 0,
    structureOf(result.latex),
    ...secondReadAgreement(result, second),
  ];
}

/**
 * The classifier's evidence over the symbols that are not rules: mean, least and next-least log
 * probability, share under 0.9, mean and least margin to the runner-up (FEATURES' first six).
 */
export function symbolScores(symbols: readonly MathSymbol[]): number[] {
  const glyphs = symbols.filter((s) => s.latex !== RULE);
  const logs = glyphs.map((s) => logOf(s.confidence)).sort((a, b) => a - b);
  const margins = glyphs.map((s) => s.confidence - (s.alternatives?.[0]?.confidence ?? 0));
  const count = Math.max(1, glyphs.length);
  return [
    logs.reduce((a, b) => a + b, 0) / count,
    logs[0] ?? 0,
    logs[1] ?? logs[0] ?? 0,
    glyphs.filter((s) => s.confidence < 0.9).length / count,
    margins.reduce((a, b) => a + b, 0) / count,
    margins.length ? Math.min(...margins) : 1,
  ];
}

/** Fractions, radicals, scripts, big operators and arrays in the LaTeX: their count, capped at 6, over 6. */
export const structureOf = (latex: string): number => Math.min(6, (latex.match(/\\frac|\\sqrt|\^|_|\\sum|\\int|\\prod|\\lim|\\begin/g) ?? []).length) / 6;

/**
 * Whether a second reading gave the same LaTeX (1/0), and 1 − their token edit distance over the
 * longer; two spellings of one print count as the same.
 */
export const secondReadAgreement = (first: MathResult, second: MathResult): number[] => {
  const [a, b] = [samePrint(first.latex), samePrint(second.latex)];
  return [a === b ? 1 : 0, 1 - normalisedEditDistance(a, b)];
};

/**
 * `\binom{a}{b}` as the two-row parenthesised column it prints (spelled as layout/emit.ts spells a
 * pmatrix): which of the two a read writes hangs on the rows' spacing alone (layout/matrix.ts
 * `isBinomial`), which enlarging can tip.
 */
export function samePrint(latex: string): string {
  let out = '';
  let at = 0;
  for (let start = latex.indexOf('\\binom{'); start >= 0; start = latex.indexOf('\\binom{', at)) {
    const upper = groupEnd(latex, start + 6);
    const lower = upper < latex.length && latex[upper] === '{' ? groupEnd(latex, upper) : -1;
    if (lower < 0) break;
    out += `${latex.slice(at, start)}\\begin{pmatrix}${latex.slice(start + 7, upper - 1)} \\\\ ${latex.slice(upper + 1, lower - 1)}\\end{pmatrix}`;
    at = lower;
  }
  return out + latex.slice(at);
}

/** The model's chance that the read is exact, 0..1. */
export function exactChance(model: FormulaConfidenceModel, features: readonly number[]): number {
  const z = model.weights.reduce((s, w, i) => s + (w * (features[i]! - model.mean[i]!)) / model.scale[i]!, model.bias);
  return 1 / (1 + Math.exp(-z));
}

/** The confidence_rate threshold the spec sets by default (4.2), where `rate_knot` lands. */
export const DEFAULT_RATE_THRESHOLD = 0.75;

/** The chance on the confidence_rate scale: [0, rate_knot] → [0, 0.75] and [rate_knot, 1] → [0.75, 1], linearly. */
export function rateOf(model: FormulaConfidenceModel, chance: number): number {
  const knot = model.rate_knot;
  const t = DEFAULT_RATE_THRESHOLD;
  return chance <= knot ? (chance / knot) * t : t + ((chance - knot) / (1 - knot)) * (1 - t);
}

/** What the answer reports for a read with these features. */
export function judge(model: FormulaConfidenceModel, features: readonly number[]): { confidence: number; rate: number } {
  const confidence = exactChance(model, features);
  return { confidence, rate: rateOf(model, confidence) };
}

/** Loads the shipped model, refusing one whose features are not FEATURES. */
export async function loadFormulaConfidence(manifestPath?: string): Promise<FormulaConfidenceModel> {
  return loadConfidenceModel(FORMULA_CONFIDENCE_MODEL_ID, FEATURES, manifestPath);
}

/** Loads the shipped handwriting-picture model, refusing one whose features are not FEATURES. */
export async function loadHandwritingConfidence(manifestPath?: string): Promise<FormulaConfidenceModel> {
  return loadConfidenceModel(HANDWRITING_CONFIDENCE_MODEL_ID, FEATURES, manifestPath);
}

/** Loads a shipped confidence model of this form (formula images, pen strokes), refusing one fitted on other features. */
export async function loadConfidenceModel(id: string, features: readonly string[], manifestPath?: string): Promise<FormulaConfidenceModel> {
  const { bytes, file } = await loadModelFile(id, manifestPath ? { manifestPath } : {});
  const model = ModelSchema.parse(JSON.parse(bytes.toString('utf8')));
  const sizes = [model.features.length, model.mean.length, model.scale.length, model.weights.length];
  if (model.features.join() !== features.join() || sizes.some((n) => n !== features.length)) {
    throw new Error(`${file} was fitted on features ${model.features.join(', ')}, not ${features.join(', ')}`);
  }
  return model;
}

/**
 * The characters both readers can see: letters, digits and the plain operators. Control words
 * (`\frac`, `\alpha`), braces and script marks are dropped from LaTeX; the text model writes
 * Unicode minus and times as they look.
 */
function visibleLatex(latex: string): string {
  return visibleText(latex.replace(/\\[A-Za-z]+/g, ''));
}

function visibleText(text: string): string {
  return text.replace(/[−–]/g, '-').replace(/[^A-Za-z0-9+\-=()<>]/g, '');
}

/** 1 − the edit distance between the visible characters of the two reads over the longer. */
function textAgreement(latex: string, text: string): number {
  const a = visibleLatex(latex);
  const b = visibleText(text);
  if (!a.length || !b.length) return 0;
  return 1 - levenshtein([...a], [...b]) / Math.max(a.length, b.length);
}
