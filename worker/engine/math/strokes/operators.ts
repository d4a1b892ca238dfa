import { GREEK_LETTERS } from '../image/vocabulary.js';
import { RADICAL, RULE, type MathSymbol } from '../types.js';

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
 * both neighbours (`4+2`, not `4t2`; `u+(`, not `ut(`; `R+\sqrt{…}`; a fraction bar, with ink over
 * and under it, is an operand too: `a+\frac{…}{…}`). A `t` next to an operator, a bracket it
 * opens or closes, or the end of the line keeps the classifier's label (`1+t`, `t^{2}`). Likewise
 * a lone `|` in an expression, with `1` among its alternatives however unlikely (one stroke draws
 * both), is `1`.
 */
export function preferOperators(symbols: MathSymbol[]): MathSymbol[] {
  const bars = symbols.filter((s) => s.latex === '|').length;
  return symbols.map((s) => {
    // `|` comes in pairs around an absolute value or a norm; a lone one is a `1` drawn as a stroke.
    if (s.latex === '|' && bars === 1) return preferAlternative(s, '1', 0) ?? s;
    if (!PLUS_LOOKALIKES.has(s.latex)) return s;
    const plus = preferAlternative(s, '+');
    if (!plus) return s;
    const onLine = symbols.filter((o) => o !== s && sharedHeight(o, s) >= SAME_LINE * Math.min(o.box.y1 - o.box.y0, s.box.y1 - s.box.y0));
    const left = onLine.filter((o) => o.box.x1 <= (s.box.x0 + s.box.x1) / 2).sort((a, b) => b.box.x1 - a.box.x1)[0];
    const right = onLine.filter((o) => o.box.x0 >= (s.box.x0 + s.box.x1) / 2).sort((a, b) => a.box.x0 - b.box.x0)[0];
    if (!left || !right) return s;
    const operandLeft = isOperand(left.latex) || left.latex === ')' || left.latex === ']' || isFractionBar(left, symbols);
    const operandRight = isOperand(right.latex) || right.latex === '(' || right.latex === '[' || right.latex === RADICAL || isFractionBar(right, symbols);
    return operandLeft && operandRight ? plus : s;
  });
}

/** Letters that descend below the baseline, and the letters of the same shape that sit on it (small, capital). */
const DESCENDING_TWINS: Readonly<Record<string, readonly [string, string]>> = { '\\chi': ['x', 'X'] };
const DESCENDER_OF: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(DESCENDING_TWINS).flatMap(([descender, twins]) => twins.map((t) => [t, descender])),
);
/** Letters and digits that sit on the baseline: their foot marks it. */
const ON_BASELINE = /^[0-9a-fhik-orstuv-zA-Z]$/;
/** How far (in the neighbour's height) a descender's foot must reach below the baseline to descend. */
const DESCENT = 0.15;
/** Below this share of its neighbour's height, a letter is small (x-height), not a capital. */
const SMALL_LETTER = 0.8;

/**
 * A `\chi` whose foot is level with the baseline of its neighbour on the line (a digit or a letter
 * that sits on the baseline) is an `x` drawn with curved strokes: χ descends below the baseline, x
 * does not. The twin is `x` or `X` by its height against that neighbour's, when the classifier
 * found either plausible; its confidence is then the shape's (χ, x and X together). A `\chi` with
 * no such neighbour has no baseline to judge by: it is the small twin, far the commoner in maths
 * (models/training/maths-symbol-frequency.py: x 976 times, X 64, \chi 7), when that is plausible.
 * One that descends keeps its label. A shape the classifier already reads as that twin, with `\chi`
 * among its alternatives, gets the same confidence: the shape's.
 */
export function preferBaselineTwins(symbols: MathSymbol[]): MathSymbol[] {
  return symbols.map((s) => {
    const descender = DESCENDING_TWINS[s.latex] ? s.latex : DESCENDER_OF[s.latex];
    if (!descender) return s;
    const twins = DESCENDING_TWINS[descender];
    const height = s.box.y1 - s.box.y0;
    const neighbour = symbols
      .filter((o) => o !== s && ON_BASELINE.test(o.latex) && sharedHeight(o, s) >= SAME_LINE * Math.min(o.box.y1 - o.box.y0, height))
      .filter((o) => o.box.y1 >= (s.box.y0 + s.box.y1) / 2) // not a script raised above it
      .sort((a, b) => gap(a, s) - gap(b, s))[0];
    const neighbourHeight = neighbour ? neighbour.box.y1 - neighbour.box.y0 : 0;
    if (neighbour && s.box.y1 > neighbour.box.y1 + DESCENT * neighbourHeight) return s;
    const twin = !neighbour || height < SMALL_LETTER * neighbourHeight ? twins[0] : twins[1];
    if (s.latex !== descender) {
      const shape = (s.alternatives ?? []).filter((a) => a.latex === descender || twins.includes(a.latex));
      if (twin !== s.latex || !shape.some((a) => a.latex === descender)) return s;
      return { ...s, confidence: s.confidence + shape.reduce((sum, a) => sum + a.confidence, 0) };
    }
    const plausible = (s.alternatives ?? []).filter((a) => twins.includes(a.latex)).reduce((sum, a) => sum + a.confidence, 0);
    if (plausible < PLAUSIBLE) return s;
    const others = [{ latex: s.latex, confidence: s.confidence }, ...(s.alternatives ?? []).filter((a) => a.latex !== twin)];
    return { ...s, latex: twin, confidence: s.confidence + plausible, alternatives: others };
  });
}

const gap = (a: MathSymbol, b: MathSymbol): number => Math.max(a.box.x0 - b.box.x1, b.box.x0 - a.box.x1, 0);

/** `s` relabelled `latex` when that is among its alternatives with at least `least`. */
function preferAlternative(s: MathSymbol, latex: string, least = PLAUSIBLE): MathSymbol | null {
  const chosen = s.alternatives?.find((a) => a.latex === latex);
  if (!chosen || chosen.confidence < least) return null;
  const others = [{ latex: s.latex, confidence: s.confidence }, ...(s.alternatives ?? []).filter((a) => a !== chosen)];
  return { ...s, latex, confidence: chosen.confidence, alternatives: others };
}

/** A bar with ink both over and under it, within its width: a fraction, an operand like any other. */
function isFractionBar(bar: MathSymbol, symbols: MathSymbol[]): boolean {
  if (bar.latex !== RULE) return false;
  const within = symbols.filter((o) => o !== bar && (o.box.x0 + o.box.x1) / 2 > bar.box.x0 && (o.box.x0 + o.box.x1) / 2 < bar.box.x1);
  return within.some((o) => o.box.y1 <= bar.box.y0) && within.some((o) => o.box.y0 >= bar.box.y1);
}

const sharedHeight = (a: MathSymbol, b: MathSymbol): number => Math.min(a.box.y1, b.box.y1) - Math.max(a.box.y0, b.box.y0);
