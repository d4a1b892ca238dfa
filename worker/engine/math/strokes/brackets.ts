import type { MathSymbol } from '../types.js';
import { onOneLine, preferAlternative, settledAmong } from './relabel.js';

/** The least probability a look-alike needs to become the missing bracket. */
const PLAUSIBLE = 0.05;
/** A `(` left open closes on a look-alike with less: its `)` was drawn, read as a `J` (`)` 0.03) or a `D`. */
const CLOSER_PLAUSIBLE = 0.01;
/**
 * The readings one stroke of a bracket's shape also gives: a round `(` is a `C`, a `c`, a `<`; a `)`
 * a `D` (its bow taken for the bowl, the stem imagined), a `J`, a `>`; either a `/`, a `|`, a `1`.
 */
const BRACKET_SHAPES: Readonly<Record<string, readonly string[]>> = {
  '(': ['(', 'C', 'c', '<', '\\langle', '\\{', '[', '/', '|', '1', 'l'],
  ')': [')', 'D', 'J', 'j', '>', '\\rangle', '\\}', ']', '/', '|', '1', 'l'],
};

/**
 * Parentheses come in pairs: a `)` that no `(` to its left faces was drawn with its `(` read as
 * something else (a `(` drawn round is a `C`, a `c`, a `<`), or is no bracket at all. The symbol to
 * its left, on its line, with `(` likeliest among its alternatives becomes the `(`; with none, a
 * `)` that has `1` among its alternatives is a `1` (a stroke with a slight bow). Likewise a `(`
 * left open closes on the symbol to its right with `)` likeliest among its alternatives (a `J`, a `>`).
 * Each `)` pairs with the nearest open `(` before it whose height it shares.
 *
 * A bracket that pairs is settled: its pair, not the classifier, chose between the readings of its
 * shape (BRACKET_SHAPES), so it gets the shape's confidence, and the look-alikes are dropped from its
 * runner-ups; the layout's look-alike choice (layout/lookalikes.ts), which expects a printed bracket's
 * depth below the baseline, took a hand's `(` back as `C` and its `)` as `D`, and a capital there
 * made the whole line before it its prescript (`{}^{R-5<(V}D^{+3}`).
 */
export function pairBrackets(input: MathSymbol[]): MathSymbol[] {
  const symbols = [...input];
  const order = [...symbols.keys()].sort((a, b) => symbols[a].box.x0 - symbols[b].box.x0);
  const open: number[] = [];
  const unopened: number[] = [];
  const paired: number[] = [];
  for (const i of order) {
    if (symbols[i].latex === '(') open.push(i);
    else if (symbols[i].latex === ')') {
      const k = open.findLastIndex((j) => onOneLine(symbols[j], symbols[i]));
      if (k >= 0) paired.push(i, ...open.splice(k, 1));
      else unopened.push(i);
    }
  }
  for (const i of unopened) {
    const opener = likeliest(symbols, '(', (o) => o.box.x1 <= symbols[i].box.x0 && onOneLine(o, symbols[i]));
    if (opener !== undefined) {
      symbols[opener] = preferAlternative(symbols[opener], '(', PLAUSIBLE)!;
      paired.push(i, opener);
    } else symbols[i] = preferAlternative(symbols[i], '1', 0) ?? symbols[i];
  }
  for (const i of open) {
    const closer = likeliest(symbols, ')', (o) => o.box.x0 >= symbols[i].box.x1 && onOneLine(o, symbols[i]), CLOSER_PLAUSIBLE);
    if (closer === undefined) continue;
    symbols[closer] = preferAlternative(symbols[closer], ')', CLOSER_PLAUSIBLE)!;
    paired.push(i, closer);
  }
  for (const i of paired) symbols[i] = settledBracket(symbols[i]);
  return symbols;
}

/** A bracket its pair settled: the confidence of its shape's readings together, none of them a runner-up. */
function settledBracket(s: MathSymbol): MathSymbol {
  const shape = BRACKET_SHAPES[s.latex];
  const settled = settledAmong(s, s.latex, shape);
  return { ...settled, alternatives: settled.alternatives?.filter((a) => !shape.includes(a.latex)) };
}

/** The index of the symbol passing `where`, not a bracket itself, whose alternative `latex` is likeliest (at least `least`). */
function likeliest(symbols: readonly MathSymbol[], latex: string, where: (s: MathSymbol) => boolean, least = PLAUSIBLE): number | undefined {
  let best: { index: number; p: number } | undefined;
  symbols.forEach((s, index) => {
    if (s.latex === '(' || s.latex === ')' || !where(s)) return;
    const p = s.alternatives?.find((a) => a.latex === latex)?.confidence ?? 0;
    if (p >= least && p > (best?.p ?? 0)) best = { index, p };
  });
  return best?.index;
}
