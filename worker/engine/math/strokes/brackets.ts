import type { MathSymbol } from '../types.js';
import { onOneLine, preferAlternative } from './relabel.js';

/** The least probability a look-alike needs to become the missing bracket. */
const PLAUSIBLE = 0.05;

/**
 * Parentheses come in pairs: a `)` that no `(` to its left faces was drawn with its `(` read as
 * something else (a `(` drawn round is a `C`, a `c`, a `<`), or is no bracket at all. The symbol to
 * its left, on its line, with `(` likeliest among its alternatives becomes the `(`; with none, a
 * `)` that has `1` among its alternatives is a `1` (a stroke with a slight bow). Likewise a `(`
 * left open closes on the symbol to its right with `)` likeliest among its alternatives (a `J`, a `>`).
 * Each `)` pairs with the nearest open `(` before it whose height it shares.
 */
export function pairBrackets(input: MathSymbol[]): MathSymbol[] {
  const symbols = [...input];
  const order = [...symbols.keys()].sort((a, b) => symbols[a].box.x0 - symbols[b].box.x0);
  const open: number[] = [];
  const unopened: number[] = [];
  for (const i of order) {
    if (symbols[i].latex === '(') open.push(i);
    else if (symbols[i].latex === ')') {
      const k = open.findLastIndex((j) => onOneLine(symbols[j], symbols[i]));
      if (k >= 0) open.splice(k, 1);
      else unopened.push(i);
    }
  }
  for (const i of unopened) {
    const opener = likeliest(symbols, '(', (o) => o.box.x1 <= symbols[i].box.x0 && onOneLine(o, symbols[i]));
    if (opener !== undefined) symbols[opener] = preferAlternative(symbols[opener], '(', PLAUSIBLE)!;
    else symbols[i] = preferAlternative(symbols[i], '1', 0) ?? symbols[i];
  }
  for (const i of open) {
    const closer = likeliest(symbols, ')', (o) => o.box.x0 >= symbols[i].box.x1 && onOneLine(o, symbols[i]));
    if (closer !== undefined) symbols[closer] = preferAlternative(symbols[closer], ')', PLAUSIBLE)!;
  }
  return symbols;
}

/** The index of the symbol passing `where`, not a bracket itself, whose alternative `latex` is likeliest (at least PLAUSIBLE). */
function likeliest(symbols: readonly MathSymbol[], latex: string, where: (s: MathSymbol) => boolean): number | undefined {
  let best: { index: number; p: number } | undefined;
  symbols.forEach((s, index) => {
    if (s.latex === '(' || s.latex === ')' || !where(s)) return;
    const p = s.alternatives?.find((a) => a.latex === latex)?.confidence ?? 0;
    if (p >= PLAUSIBLE && p > (best?.p ?? 0)) best = { index, p };
  });
  return best?.index;
}
