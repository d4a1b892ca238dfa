import { TWIN_WEIGHTS } from '../lookalikes.js';
import type { MathSymbol } from '../types.js';
import { gap, onOneLine, settledAmong } from './relabel.js';

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
 * ascender), and a capital when it is about as tall. Without such a neighbour (in a script whose
 * base is no neighbour on its baseline) the classifier's label stands. A symbol that no letter or
 * digit shares a line with (alone, alone under a radical, a lone script) has nothing to tell its
 * size by: of the shapes drawn alike (these letters, and `2`, `z`, `Z`) it is the one whose
 * probability, weighed by how often maths writes it (TWIN_WEIGHTS: `x` 15 times as often as `X`,
 * `2` 20 times as often as `z`), is highest. Where size or frequency chose the reading, the
 * symbol's confidence is the shape's (all its readings together), whether or not the label changed:
 * the classifier's split between `x` and `X` says nothing of whether the shape is read right.
 */
export function preferCaseBySize(symbols: MathSymbol[]): MathSymbol[] {
  return symbols.map((s) => {
    if (TWIN_WEIGHTS[s.latex] && alone(s, symbols)) return settledAmong(s, likelierTwin(s), Object.keys(TWIN_WEIGHTS[s.latex]!));
    if (!SAME_SHAPE.has(s.latex)) return s;
    const height = s.box.y1 - s.box.y0;
    const tall = symbols
      .filter((o) => o !== s && TALL.test(o.latex) && Math.abs(o.box.y1 - s.box.y1) <= LEVEL * (o.box.y1 - o.box.y0))
      .sort((a, b) => gap(a, s) - gap(b, s))[0];
    const small = s.latex.toLowerCase();
    const ratio = tall ? height / (tall.box.y1 - tall.box.y0) : 0;
    if (!tall || (ratio >= SMALL && ratio < CAPITAL)) return s;
    if (ratio < SMALL) return settledAmong(s, small, [small, small.toUpperCase()]);
    // As tall as a capital, a `Z` is drawn as a `2` is: the two are weighed by how often maths writes each.
    const twins = TALL_TWINS[small] ?? [small.toUpperCase()];
    return settledAmong(s, likelierTwin(s, twins), [small, ...twins]);
  });
}

/** No letter or digit shares the symbol's line: nothing tells its size. */
const alone = (s: MathSymbol, symbols: MathSymbol[]): boolean => !symbols.some((o) => o !== s && /^[A-Za-z0-9]$/.test(o.latex) && onOneLine(o, s));

/** Full-height shapes a small letter shares beyond its capital: a `2` is drawn like a `Z`. */
const TALL_TWINS: Readonly<Record<string, readonly string[]>> = { z: ['Z', '2'] };

/** Of `among` (all its size twins by default), the twin whose probability, weighed by how often maths writes it, is highest. */
function likelierTwin(s: MathSymbol, among: readonly string[] = Object.keys(TWIN_WEIGHTS[s.latex]!)): string {
  const weights = TWIN_WEIGHTS[s.latex]!;
  const probability = (latex: string) => (s.latex === latex ? s.confidence : (s.alternatives?.find((a) => a.latex === latex)?.confidence ?? 0));
  return among.reduce((best, t) => (probability(t) * weights[t]! > probability(best) * weights[best]! ? t : best), among[0]);
}
