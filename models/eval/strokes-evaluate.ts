import { addTally, latexTokens, NO_TALLY, type ScoredFormula, type SymbolTally } from '../../worker/engine/math/eval-metrics.js';
import type { MathResult, Stroke } from '../../worker/engine/math/types.js';
import type { Evaluation } from './evaluate.js';
import type { Parts } from './front-ends.js';
import type { HandwritingSet } from './strokes-set.js';

/**
 * Scores the strokes front end on the synthetic handwriting set: exact match under normaliseLatex,
 * and symbol accuracy. Strokes carry no glyph boxes to match against, so a symbol counts as read
 * when the normalised answer's ink tokens align with the expected one's (minimum edit alignment):
 * `matched` is aligned to some token, `agreed` aligned to the same token. Grouping tokens
 * ({ } ^ _) are not symbols; \frac (the bar) and \sqrt (the sign) are.
 */

const NOT_INK = new Set(['{', '}', '^', '_', '&', '\\\\']);

/** The ink symbols of normalised LaTeX, in order. */
export function inkTokens(latex: string): string[] {
  return latexTokens(latex.replace(/\\(begin|end)\{[^}]*\}(\{[^}]*\})?/g, '')).filter((t) => !NOT_INK.has(t));
}

/** Aligns two token sequences with unit-cost edits and tallies the expected symbols. */
export function alignSymbols(expected: readonly string[], got: readonly string[]): SymbolTally {
  const n = expected.length;
  const m = got.length;
  const cost = Array.from({ length: n + 1 }, (_, i) => Array.from({ length: m + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) cost[i][j] = Math.min(cost[i - 1][j] + 1, cost[i][j - 1] + 1, cost[i - 1][j - 1] + (expected[i - 1] === got[j - 1] ? 0 : 1));
  }
  let matched = 0;
  let agreed = 0;
  const confusions: Record<string, number> = {};
  const confuse = (key: string) => (confusions[key] = (confusions[key] ?? 0) + 1);
  for (let i = n, j = m; i > 0;) {
    const same = j > 0 && expected[i - 1] === got[j - 1];
    if (j > 0 && cost[i][j] === cost[i - 1][j - 1] + (same ? 0 : 1)) {
      matched++;
      if (same) agreed++;
      else confuse(`${expected[i - 1]} → ${got[j - 1]}`);
      (i--, j--);
    } else if (cost[i][j] === cost[i - 1][j] + 1) {
      confuse(`${expected[i - 1]} → nothing`);
      i--;
    } else {
      j--;
    }
  }
  return { truth: n, matched, agreed, confusions };
}

/**
 * Recognises every formula of the set once, timed. A formula MathJax could not typeset, or whose
 * recognition threw, is a row with `error` and counts as wrong.
 */
export async function evaluateStrokes(set: HandwritingSet, parts: Parts, recognize: (strokes: Stroke[]) => Promise<MathResult>): Promise<Evaluation> {
  const rows: ScoredFormula[] = [];
  let symbols = NO_TALLY;
  for (const { formula, strokes, error } of set.formulas) {
    const row: ScoredFormula = {
      id: formula.id,
      category: formula.category,
      source: formula.latex,
      expected: parts.normaliseLatex(formula.latex),
      got: '',
      ms: 0,
    };
    if (!strokes) {
      rows.push({ ...row, error: `not in the handwriting set: ${error}` });
      continue;
    }
    try {
      const start = performance.now();
      const result = await recognize(strokes);
      row.ms = performance.now() - start;
      row.got = parts.normaliseLatex(result.latex);
    } catch (err) {
      row.error = `recognition: ${err instanceof Error ? err.message : String(err)}`;
    }
    symbols = addTally(symbols, alignSymbols(inkTokens(row.expected), inkTokens(row.got)));
    rows.push(row);
  }
  return { frontEnd: 'strokes', rows, symbols };
}
