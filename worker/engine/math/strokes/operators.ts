import { GREEK_LETTERS } from '../image/vocabulary.js';
import type { MathSymbol } from '../types.js';

/** Letters a hand draws like `+`. */
const PLUS_LOOKALIKES = new Set(['t', 'T']);
/** The least probability an alternative needs to be chosen by context. */
const PLAUSIBLE = 0.05;
/** Two symbols are on one line when their vertical extents share this much of the shorter one. */
const SAME_LINE = 0.5;

const GREEK = new Set(GREEK_LETTERS);
const isOperand = (latex: string): boolean => /^[A-Za-z0-9]$/.test(latex) || GREEK.has(latex);

/**
 * A `t` or `T` written between two operands on its line, with `+` a plausible reading, is `+`:
 * in written maths a binary operator stands there far more often than a letter juxtaposed with
 * both neighbours (`4+2`, not `4t2`; `u+(`, not `ut(`). A `t` next to an operator, a bracket it
 * opens or closes, or the end of the line keeps the classifier's label (`1+t`, `t^{2}`). Likewise
 * a lone `|` in an expression, with `1` plausible, is `1`.
 */
export function preferOperators(symbols: MathSymbol[]): MathSymbol[] {
  const bars = symbols.filter((s) => s.latex === '|').length;
  return symbols.map((s) => {
    // `|` comes in pairs around an absolute value or a norm; a lone one is a `1` drawn as a stroke.
    if (s.latex === '|' && bars === 1) return preferAlternative(s, '1') ?? s;
    if (!PLUS_LOOKALIKES.has(s.latex)) return s;
    const plus = preferAlternative(s, '+');
    if (!plus) return s;
    const onLine = symbols.filter((o) => o !== s && sharedHeight(o, s) >= SAME_LINE * Math.min(o.box.y1 - o.box.y0, s.box.y1 - s.box.y0));
    const left = onLine.filter((o) => o.box.x1 <= (s.box.x0 + s.box.x1) / 2).sort((a, b) => b.box.x1 - a.box.x1)[0];
    const right = onLine.filter((o) => o.box.x0 >= (s.box.x0 + s.box.x1) / 2).sort((a, b) => a.box.x0 - b.box.x0)[0];
    if (!left || !right) return s;
    const operandLeft = isOperand(left.latex) || left.latex === ')' || left.latex === ']';
    const operandRight = isOperand(right.latex) || right.latex === '(' || right.latex === '[';
    return operandLeft && operandRight ? plus : s;
  });
}

/** `s` relabelled `latex` when that is among its alternatives with at least PLAUSIBLE. */
function preferAlternative(s: MathSymbol, latex: string): MathSymbol | null {
  const chosen = s.alternatives?.find((a) => a.latex === latex);
  if (!chosen || chosen.confidence < PLAUSIBLE) return null;
  const others = [{ latex: s.latex, confidence: s.confidence }, ...(s.alternatives ?? []).filter((a) => a !== chosen)];
  return { ...s, latex, confidence: chosen.confidence, alternatives: others };
}

const sharedHeight = (a: MathSymbol, b: MathSymbol): number => Math.min(a.box.y1, b.box.y1) - Math.max(a.box.y0, b.box.y0);
