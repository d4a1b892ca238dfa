import { markdownTable, normalisedEditDistance, percent } from '../../worker/engine/math/eval-metrics.js';
import { SYMBOL_CLASSES } from '../../worker/engine/math/image/vocabulary.js';
import type { MathResult, Stroke } from '../../worker/engine/math/types.js';
import { HELD_OUT_FOLD, readRealSamples } from '../training/strokes-real.js';
import { composedExpressions } from './strokes-real-set.js';

/**
 * The strokes recogniser on real ink of held-out writers (fold 0 of Detexify and UNIPEN; no
 * training sample comes from it):
 * - symbols: every held-out drawing of a class alone, through the whole engine (grouping,
 *   classification, layout), read exactly;
 * - expressions: EXPRESSIONS compositions of those drawings (strokes-real-set.ts), exact match
 *   and normalised edit distance, and what POST /v3/strokes answers at default options: a read
 *   whose confidence_rate (worker/inference/strokes-confidence.ts, rounded as the route does) is below 0.75 is refused
 *   with math_confidence, and counts as not read.
 * The reliability table bins confidence_rate against exactness.
 */

export const EXPRESSIONS = 300;
/** Spec default confidence_rate_threshold of /v3/strokes. */
const DEFAULT_RATE_THRESHOLD = 0.75;
/** Classes a drawing of their own does not make into LaTeX (accents need a base; the radical a radicand). */
const NOT_ALONE = new Set(['\\hat', '\\tilde', '\\vec', '\\sqrt']);

export interface StrokesRealReport {
  symbols: { total: number; exact: number };
  expressions: Array<{ id: string; expected: string; got: string; rate: number; exact: boolean; distance: number; symbols: number[] }>;
}

/** A read and the confidence_rate POST /v3/strokes would answer with it. */
type Recognise = (strokes: Stroke[]) => Promise<{ result: MathResult; rate: number }>;
type Normalise = (latex: string) => string;

/**
 * `readSymbol` reads a lone symbol's drawing (the LaTeX is all that counts there, so the route's
 * extra reads for its confidence can be skipped); it defaults to `recognise`.
 */
export async function evaluateRealStrokes(
  recognise: Recognise,
  normalise: Normalise,
  opts: { symbolLimit?: number; readSymbol?: (strokes: Stroke[]) => Promise<MathResult> } = {},
): Promise<StrokesRealReport> {
  const readSymbol = opts.readSymbol ?? (async (strokes: Stroke[]) => (await recognise(strokes)).result);
  const held = await readRealSamples({ folds: (f) => f === HELD_OUT_FOLD });
  const symbols = { total: 0, exact: 0 };
  const same = (a: string) => normalise(a).replace(/\\cdot/g, '.');
  for (const s of held.slice(0, opts.symbolLimit)) {
    const label = SYMBOL_CLASSES[s.label];
    if (NOT_ALONE.has(label)) continue;
    const got = await readSymbol(s.strokes).then(
      (r) => r.latex,
      () => '',
    );
    symbols.total++;
    if (same(got) === same(label)) symbols.exact++;
  }
  const expressions: StrokesRealReport['expressions'] = [];
  for (const e of await composedExpressions(EXPRESSIONS)) {
    const { result, rate } = await recognise(e.strokes).catch(() => ({ result: { latex: '', confidence: 0, boxes: [] } as MathResult, rate: 0 }));
    const expected = normalise(e.latex);
    const got = normalise(result.latex);
    expressions.push({
      id: e.id,
      expected,
      got,
      rate: Math.round(1000 * rate) / 1000,
      exact: expected === got,
      distance: normalisedEditDistance(expected, got),
      symbols: result.boxes.map((b) => b.confidence),
    });
  }
  return { symbols, expressions };
}

/** The rows for RESULTS.md and the console. */
export function realStrokesMarkdown(report: StrokesRealReport): string {
  const rows = report.expressions;
  const n = Math.max(rows.length, 1);
  const exact = rows.filter((r) => r.exact).length;
  const answered = rows.filter((r) => r.rate >= DEFAULT_RATE_THRESHOLD);
  const answeredExact = answered.filter((r) => r.exact).length;
  const meanDistance = rows.reduce((s, r) => s + r.distance, 0) / n;
  const table = markdownTable(
    ['held-out writers (real strokes)', 'n', 'exact (engine)', 'edit distance', 'exact at default options', 'answered', 'answered that are exact'],
    [
      ['single symbols', String(report.symbols.total), percent(report.symbols.exact / Math.max(report.symbols.total, 1)), '', '', '', ''],
      [
        'composed expressions',
        String(rows.length),
        percent(exact / n),
        meanDistance.toFixed(3),
        percent(answeredExact / n),
        percent(answered.length / n),
        percent(answeredExact / Math.max(answered.length, 1)),
      ],
    ],
  );
  const bins = [0, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0001];
  const reliability = markdownTable(
    ['confidence_rate', 'expressions', 'exact'],
    bins.slice(0, -1).map((low, i) => {
      const inBin = rows.filter((r) => r.rate >= low && r.rate < bins[i + 1]);
      return [
        `${low.toFixed(2)}–${Math.min(bins[i + 1], 1).toFixed(2)}`,
        String(inBin.length),
        inBin.length ? percent(inBin.filter((r) => r.exact).length / inBin.length) : '–',
      ];
    }),
  );
  return `${table}\n\nReliability (composed expressions, default threshold ${DEFAULT_RATE_THRESHOLD}):\n\n${reliability}\n`;
}
