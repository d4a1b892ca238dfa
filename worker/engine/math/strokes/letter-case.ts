import type { MathSymbol } from '../types.js';

/** Letters whose small and capital forms a hand draws alike: only their size against the line tells them apart. */
const SAME_SHAPE = new Set([...'csuvwxz', ...'CSUVWXZ']);
/** Symbols as tall as a capital that sit on the baseline: digits, capitals, small letters with an ascender. */
const TALL = /^[0-9ABD-RTYbdfhklt]$/;
/** Two symbols stand on one baseline when their feet are this close, in the tall one's height. */
const LEVEL = 0.15;
/** Under this share of the tall neighbour's height a letter is small; from CAPITAL up, a capital; between, as read. */
const SMALL = 0.75;
const CAPITAL = 0.9;

/**
 * Small or capital by size (c s u v w x z): a letter drawn alike in both cases is small when it
 * reaches well under the top of the nearest tall symbol on its baseline (a digit, a capital, an
 * ascender), and a capital when it is about as tall. Without such a neighbour (a letter alone, in a
 * script whose base is no neighbour on its baseline) the classifier's label stands. The relabelled
 * symbol's confidence is the shape's: both cases together.
 */
export function preferCaseBySize(symbols: MathSymbol[]): MathSymbol[] {
  return symbols.map((s) => {
    if (!SAME_SHAPE.has(s.latex)) return s;
    const height = s.box.y1 - s.box.y0;
    const tall = symbols
      .filter((o) => o !== s && TALL.test(o.latex) && Math.abs(o.box.y1 - s.box.y1) <= LEVEL * (o.box.y1 - o.box.y0))
      .sort((a, b) => gap(a, s) - gap(b, s))[0];
    if (!tall) return s;
    const ratio = height / (tall.box.y1 - tall.box.y0);
    const small = s.latex.toLowerCase();
    const want = ratio < SMALL ? small : ratio >= CAPITAL ? small.toUpperCase() : s.latex;
    if (want === s.latex) return s;
    const twin = s.alternatives?.find((a) => a.latex === want)?.confidence ?? 0;
    const others = [{ latex: s.latex, confidence: s.confidence }, ...(s.alternatives ?? []).filter((a) => a.latex !== want)];
    return { ...s, latex: want, confidence: s.confidence + twin, alternatives: others };
  });
}

const gap = (a: MathSymbol, b: MathSymbol): number => Math.max(a.box.x0 - b.box.x1, b.box.x0 - a.box.x1, 0);
