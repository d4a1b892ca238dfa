import { centreX, centreY, height, median } from '../layout/element.js';
import type { MathSymbol } from '../types.js';

/** A brace over rows spans at least two of them: this many times the median symbol height. */
const TALL = 1.8;
/** Rows are apart when the vertical projection of what follows the brace has a gap of this many median heights. */
const ROW_GAP = 0.1;
/** Readings of a tall symbol at the left of rows that are one open delimiter or another. */
const LEFT_DELIMITERS = new Set(['\\{', '|', '(', '[', '\\langle', '\\|']);

/**
 * The brace of a handwritten `cases`. A hand's tall `{` is often read as `|` or `(`, with `\{`
 * among the runners-up, and the layout parser builds `cases` only on `\{`. A tall symbol that has
 * `\{` among its readings, is followed by two or more rows within its height, and has no closing
 * partner of its size (which would make it a matrix or an absolute value) is a brace: it becomes
 * `\{`, with the probability of all its open-delimiter readings together, since the rows, not the
 * stroke, decide which delimiter it is.
 */
export function braceBeforeRows(symbols: readonly MathSymbol[]): MathSymbol[] {
  const typical = median(symbols.map((s) => height(s.box))) ?? 0;
  return symbols.map((symbol) => {
    const { box } = symbol;
    const brace = symbol.latex === '\\{' ? symbol.confidence : (symbol.alternatives?.find((a) => a.latex === '\\{')?.confidence ?? 0);
    if (symbol.latex === '\\{' || brace === 0 || height(box) < TALL * typical) return symbol;
    const after = symbols.filter((s) => s !== symbol && centreX(s.box) > box.x1 && centreY(s.box) > box.y0 && centreY(s.box) < box.y1);
    const closed = after.some((s) => height(s.box) > 0.8 * height(box) && Math.min(s.box.y1, box.y1) - Math.max(s.box.y0, box.y0) > 0.7 * height(box));
    if (closed || rowCount(after, ROW_GAP * typical) < 2) return symbol;
    const readings = [{ latex: symbol.latex, confidence: symbol.confidence }, ...(symbol.alternatives ?? [])];
    const mass = readings.filter((r) => LEFT_DELIMITERS.has(r.latex)).reduce((sum, r) => sum + r.confidence, 0);
    const alternatives = readings.filter((r) => r.latex !== '\\{').slice(0, symbol.alternatives!.length);
    return { ...symbol, latex: '\\{', confidence: Math.min(1, mass), alternatives };
  });
}

/** Bands of the symbols' vertical projection separated by more than `gap`. */
function rowCount(symbols: readonly MathSymbol[], gap: number): number {
  const spans = symbols.map((s) => [s.box.y0, s.box.y1] as const).sort((a, b) => a[0] - b[0]);
  let rows = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const [y0, y1] of spans) {
    if (y0 - end > gap) rows++;
    end = Math.max(end, y1);
  }
  return rows;
}
