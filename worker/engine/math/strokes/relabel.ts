import type { MathSymbol } from '../types.js';

/** Two symbols are on one line when their vertical extents share this much of the shorter one. */
const SAME_LINE = 0.5;

/** Anything with a box: a symbol, or a group of strokes not yet classified. */
type Boxed = Pick<MathSymbol, 'box'>;

export const sharedHeight = (a: Boxed, b: Boxed): number => Math.min(a.box.y1, b.box.y1) - Math.max(a.box.y0, b.box.y0);

export const gap = (a: MathSymbol, b: MathSymbol): number => Math.max(a.box.x0 - b.box.x1, b.box.x0 - a.box.x1, 0);

/** Whether `a` and `b` share a line: their vertical extents overlap by SAME_LINE of the shorter. */
export const onOneLine = (a: Boxed, b: Boxed): boolean => sharedHeight(a, b) >= SAME_LINE * Math.min(a.box.y1 - a.box.y0, b.box.y1 - b.box.y0);

/** The nearest symbols left and right of `s` on its line. */
export function neighbours(s: MathSymbol, symbols: readonly MathSymbol[]): { left?: MathSymbol; right?: MathSymbol } {
  const onLine = symbols.filter((o) => o !== s && onOneLine(o, s));
  const centre = (s.box.x0 + s.box.x1) / 2;
  const left = onLine.filter((o) => o.box.x1 <= centre).sort((a, b) => b.box.x1 - a.box.x1)[0];
  const right = onLine.filter((o) => o.box.x0 >= centre).sort((a, b) => a.box.x0 - b.box.x0)[0];
  return { left, right };
}

/**
 * `s` read as `want`, a reading of the same shape that its place settles, with the shape's
 * confidence: both readings together (the context, not the classifier, chose between them).
 */
export function relabelled(s: MathSymbol, want: string): MathSymbol {
  return want === s.latex ? s : settledAmong(s, want, [s.latex, want]);
}

/**
 * `s` read as `want`, one of `shape`'s readings that the context chose between, with the shape's
 * confidence: the probabilities of all its readings together, whether or not the label changed.
 * Its runner-ups are the other shapes' readings, best first, then the shape's readings the context
 * set aside: those are no rival reading of the ink, so the margin of the read (the confidence over
 * the first runner-up, strokes-confidence.ts) is the shape's over the likeliest other shape, not
 * over its own twin (a lone `x` at 0.97 for x and X together was judged by its 0.16 over `X`).
 */
export function settledAmong(s: MathSymbol, want: string, shape: readonly string[]): MathSymbol {
  const readings = [{ latex: s.latex, confidence: s.confidence }, ...(s.alternatives ?? [])];
  const confidence = readings.filter((r) => shape.includes(r.latex)).reduce((sum, r) => sum + r.confidence, 0);
  const setAside = readings.filter((r) => r.latex !== want && shape.includes(r.latex));
  const alternatives = [...readings.filter((r) => !shape.includes(r.latex)), ...setAside];
  // A symbol settled twice (a `t` made `+` between operands, then by its place) already holds its
  // twins' share: at most the whole shape, never more than certain.
  return { ...s, latex: want, confidence: Math.min(1, Math.max(confidence, s.confidence)), alternatives };
}

/** `s` relabelled `latex` when that is among its alternatives with at least `least`. */
export function preferAlternative(s: MathSymbol, latex: string, least: number): MathSymbol | null {
  const chosen = s.alternatives?.find((a) => a.latex === latex);
  return chosen && chosen.confidence >= least ? relabelled(s, latex) : null;
}
