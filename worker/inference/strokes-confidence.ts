import { RADICAL, RULE, type MathResult, type Stroke } from '../engine/math/types.js';
import { COMMON_CLASSES } from '../engine/math/strokes/classifier.js';
import { strokesBox } from '../engine/math/strokes/geometry.js';
import { cleanStrokes } from '../engine/math/strokes/symbols-from-strokes.js';
import { readStrokes, type StrokesReading, type SymbolsFromStrokesOptions } from '../engine/math/strokes/index.js';
import { judge, loadConfidenceModel, secondReadAgreement, structureOf, symbolScores, type FormulaConfidenceModel } from './formula-confidence.js';

/**
 * The chance that a read of pen strokes is exact, from the evidence of the read: the logistic model
 * of formula-confidence.ts (exactChance, the confidence_rate scale with 0.75 at `rate_knot`) over
 * STROKES_FEATURES, fitted offline on expressions composed of TRAINING writers' real drawings only
 * (models/training/fit-strokes-confidence.ts; models/strokes-confidence.json in the manifest).
 * The evidence is the classifier's scores and margins, the shape of the read, a second reading with
 * geometry's grouping alone (no score-driven regrouping), and reads of the ink turned a little
 * each way: a read that changes with the segmentation or a slight turn is seldom right.
 */

export const STROKES_CONFIDENCE_MODEL_ID = 'strokes-confidence';

/** The features, in the order the model's weights are listed. */
export const STROKES_FEATURES = [
  'mean_log_p', // as formula-confidence.ts FEATURES: the classifier's scores over the glyphs
  'min_log_p',
  'second_min_log_p',
  'unsure_share',
  'mean_margin',
  'min_margin',
  'log_symbols', // ln(1 + number of symbols parsed)
  'strokes_per_symbol', // strokes over symbols found (rules and radicals included)
  'rare_share', // share of glyphs read as a class outside the common ones (Greek, rarer signs)
  'structure', // fractions, radicals, scripts… in the LaTeX (count, capped at 6, / 6)
  'second_read_same', // 1 when the read with geometry's grouping alone gave the same LaTeX
  'second_read_agreement', // 1 − the token edit distance between the two reads over the longer
  'tilted_reads_same', // share of the two reads of the ink turned by ±TILT that gave the same LaTeX
  'mark_share', // share of glyphs read as a dot-like mark (. \cdot , : ; !): what a scribble's specks become
  'nested_scripts', // 1 when a script holds a script of its own (rare in writing, common in misreads)
] as const;

const MARKS = new Set(['.', '\\cdot', ',', ':', ';', '!']);

/** The turn (radians, each way) of the tilted reads: enough to move a script decision that was close. */
export const TILT = 0.05;

/** The reads of the strokes. */
export interface StrokesEvidence {
  first: StrokesReading;
  /** The same strokes read with geometry's grouping alone (regroup off). */
  second: StrokesReading;
  /** The strokes turned by +TILT and −TILT about their centre, read again. */
  tilted: StrokesReading[];
}

export function strokesFeatures({ first, second, tilted }: StrokesEvidence): number[] {
  const { result, symbols } = first;
  const glyphs = symbols.filter((s) => s.latex !== RULE && s.latex !== RADICAL);
  return [
    ...symbolScores(glyphs),
    Math.log(1 + result.boxes.length),
    first.strokes / Math.max(1, symbols.length),
    glyphs.filter((s) => !COMMON_CLASSES.has(s.latex)).length / Math.max(1, glyphs.length),
    structureOf(result.latex),
    ...secondReadAgreement(result, second.result),
    tilted.filter((t) => t.result.latex === result.latex).length / Math.max(1, tilted.length),
    glyphs.filter((s) => MARKS.has(s.latex)).length / Math.max(1, glyphs.length),
    nestedScripts(result.latex) ? 1 : 0,
  ];
}

/** Whether a `^` or `_` stands inside the braces of another script. */
export function nestedScripts(latex: string): boolean {
  const groups: boolean[] = []; // per open brace: whether it opened a script
  let scriptDepth = 0;
  for (let i = 0; i < latex.length; i++) {
    const c = latex[i];
    if (c === '\\') i++;
    else if (c === '^' || c === '_') {
      if (scriptDepth > 0) return true;
      if (latex[i + 1] === '{') {
        groups.push(true);
        scriptDepth++;
        i++;
      }
    } else if (c === '{') groups.push(false);
    else if (c === '}' && groups.pop()) scriptDepth--;
  }
  return false;
}

/** Reads the strokes four times (as the route does; `first`, when given, is the first read already made) and gathers the evidence. */
export async function strokesEvidence(strokes: readonly Stroke[], opts: SymbolsFromStrokesOptions = {}, first?: StrokesReading): Promise<StrokesEvidence> {
  first ??= await readStrokes(strokes, opts);
  const second = await readStrokes(strokes, { ...opts, regroup: false });
  const tilted = [await readStrokes(turned(strokes, TILT), opts), await readStrokes(turned(strokes, -TILT), opts)];
  return { first, second, tilted };
}

/** The strokes turned by `angle` radians about the centre of their box. */
function turned(input: readonly Stroke[], angle: number): Stroke[] {
  const strokes = cleanStrokes(input);
  if (!strokes.length) return [];
  const box = strokesBox(strokes);
  const [cx, cy] = [(box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2];
  const [c, s] = [Math.cos(angle), Math.sin(angle)];
  return strokes.map((k) => ({
    x: k.x.map((x, i) => cx + (x - cx) * c - (k.y[i] - cy) * s),
    y: k.y.map((y, i) => cy + (k.x[i] - cx) * s + (y - cy) * c),
  }));
}

/** What the answer reports: the calibrated chance that the read is exact, and the same chance on the confidence_rate scale. */
export function judgeStrokes(model: FormulaConfidenceModel, evidence: StrokesEvidence): { confidence: number; rate: number } {
  if (evidence.first.result.latex === '') return { confidence: 0, rate: 0 };
  return judge(model, strokesFeatures(evidence));
}

/** The read POST /v3/strokes answers, judged: its LaTeX, symbols and boxes, with the model's confidence and rate. */
export async function readJudged(
  model: FormulaConfidenceModel,
  strokes: readonly Stroke[],
  opts: SymbolsFromStrokesOptions = {},
): Promise<{ result: MathResult; confidence: number; rate: number }> {
  const first = await readStrokes(strokes, opts);
  // A read of nothing is judged 0 whatever the other reads say (judgeStrokes): they are not made.
  if (first.result.latex === '') return { result: first.result, confidence: 0, rate: 0 };
  const evidence = await strokesEvidence(strokes, opts, first);
  return { result: evidence.first.result, ...judgeStrokes(model, evidence) };
}

let shared: Promise<FormulaConfidenceModel> | undefined;
/** The shipped model, loaded once per process; a failed load is retried on the next call. */
export function loadStrokesConfidence(manifestPath?: string): Promise<FormulaConfidenceModel> {
  if (manifestPath) return loadConfidenceModel(STROKES_CONFIDENCE_MODEL_ID, STROKES_FEATURES, manifestPath);
  shared ??= loadConfidenceModel(STROKES_CONFIDENCE_MODEL_ID, STROKES_FEATURES).catch((err: unknown) => {
    shared = undefined;
    throw err;
  });
  return shared;
}
