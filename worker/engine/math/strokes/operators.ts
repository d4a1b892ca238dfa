import { GREEK_LETTERS } from '../image/vocabulary.js';
import { RADICAL, RULE, type MathSymbol } from '../types.js';
import { pairBrackets } from './brackets.js';
import { gap, neighbours, onOneLine, preferAlternative, sharedHeight } from './relabel.js';

/** Letters a hand draws like `+`. */
const PLUS_LOOKALIKES = new Set(['t', 'T']);
/** The least probability a twin needs to be chosen by its place on the baseline. */
const PLAUSIBLE = 0.05;
/** A `t` between two operands becomes `+` with `+` among its alternatives at all. */
const PLUS_BETWEEN_OPERANDS = 0.005;

const GREEK = new Set(GREEK_LETTERS);
const isOperand = (latex: string): boolean => /^[A-Za-z0-9]$/.test(latex) || GREEK.has(latex);

/**
 * A `t` or `T` written between two operands on its line, with `+` a plausible reading, is `+`:
 * in written maths a binary operator stands there far more often than a letter juxtaposed with
 * both neighbours (`4+2`, not `4t2`; `u+(`, not `ut(`; `R+\sqrt{…}`; a fraction bar, with ink over
 * and under it, is an operand too: `a+\frac{…}{…}`). A `t` next to an operator, a bracket it
 * opens or closes, or the end of the line keeps the classifier's label (`1+t`, `t^{2}`). The
 * `1`s that one stroke draws like other marks (preferOnes) and the brackets that pair
 * (brackets.ts) are settled first, so that the `+` has its operands.
 */
export function preferOperators(input: MathSymbol[]): MathSymbol[] {
  const symbols = preferCrossLetters(preferOnes(pairBrackets(input)));
  return symbols.map((s) => {
    if (!PLUS_LOOKALIKES.has(s.latex)) return s;
    const plus = preferAlternative(s, '+', PLUS_BETWEEN_OPERANDS);
    if (!plus) return s;
    const { left, right } = neighbours(s, symbols);
    return left && right && operandLeft(left, symbols) && operandRight(right, symbols) ? plus : s;
  });
}

const operandLeft = (o: MathSymbol, symbols: readonly MathSymbol[]): boolean =>
  isOperand(o.latex) || o.latex === ')' || o.latex === ']' || o.latex === RADICAL || isFractionBar(o, symbols);
const operandRight = (o: MathSymbol, symbols: readonly MathSymbol[]): boolean =>
  isOperand(o.latex) || o.latex === '(' || o.latex === '[' || o.latex === RADICAL || isFractionBar(o, symbols);

/**
 * `\times` is a binary operator: one with no operand on a side (at an end of its line, after an
 * operator or an opening bracket, before a closing one) is an `x` drawn as a cross, where `x` or
 * `X` is among its readings (`\times t1` for `x+1`, `(\times_{7})`, `3-\times`). letter-case.ts
 * then settles its case. A cross alone keeps its reading.
 */
function preferCrossLetters(symbols: MathSymbol[]): MathSymbol[] {
  return symbols.map((s) => {
    if (s.latex !== '\\times') return s;
    const letter = preferAlternative(s, 'x', 0) ?? preferAlternative(s, 'X', 0);
    if (!letter) return s;
    const { left, right } = neighbours(s, symbols);
    // Alone, a cross has no line to tell an operator by: the classifier's reading stands.
    if (!left && !right) return s;
    return left && right && operandLeft(left, symbols) && operandRight(right, symbols) ? s : letter;
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
      .filter((o) => o !== s && ON_BASELINE.test(o.latex) && onOneLine(o, s))
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

/** A bar with ink both over and under it, within its width: a fraction, an operand like any other. */
export function isFractionBar(bar: MathSymbol, symbols: readonly MathSymbol[]): boolean {
  if (bar.latex !== RULE) return false;
  const within = symbols.filter((o) => o !== bar && (o.box.x0 + o.box.x1) / 2 > bar.box.x0 && (o.box.x0 + o.box.x1) / 2 < bar.box.x1);
  return within.some((o) => o.box.y1 <= bar.box.y0) && within.some((o) => o.box.y0 >= bar.box.y1);
}

/** Marks one stroke of the pen draws as it draws a `1`. */
const ONE_LOOKALIKES = new Set(['/', '\\prime', ',']);
/** A mark at least this share of its neighbour's height, across its middle, is full size: no prime, no comma. */
const FULL_SIZE = 0.6;

/**
 * A `/`, `\prime` or `,` that has `1` among its alternatives, however unlikely (one stroke draws
 * them all), is `1` where the line leaves it no other part: a `/` divides two operands, so one
 * with no operand on a side (at an end of its line, beside an operator) is a `1`; a prime is small
 * and raised beside its symbol, a comma small and low after it, so one as tall as much of its
 * neighbour and across that neighbour's middle is a `1`.
 */
function preferOnes(symbols: MathSymbol[]): MathSymbol[] {
  const bars = symbols.filter((s) => s.latex === '|').length;
  return symbols.map((s) => {
    // `|` comes in pairs around an absolute value or a norm; a lone one is a `1` drawn as a stroke.
    if (s.latex === '|' && bars === 1) return settledOne(s) ?? s;
    if (!ONE_LOOKALIKES.has(s.latex)) return s;
    const one = settledOne(s);
    if (!one) return s;
    const { left, right } = neighbours(s, symbols);
    if (s.latex === '/') {
      const operandLeft = left && (isOperand(left.latex) || left.latex === ')' || left.latex === RULE);
      const operandRight = right && (isOperand(right.latex) || right.latex === '(' || right.latex === RADICAL || right.latex === RULE);
      return operandLeft && operandRight ? s : one;
    }
    const beside = left ?? right ?? nearestBeside(s, symbols);
    if (!beside || beside.latex === RULE) return s;
    const middle = (beside.box.y0 + beside.box.y1) / 2;
    const full = s.box.y1 - s.box.y0 >= FULL_SIZE * (beside.box.y1 - beside.box.y0);
    return full && s.box.y0 < middle && s.box.y1 > middle ? one : s;
  });
}

/**
 * `s` read as the `1` among its alternatives, the shape's other readings (`/`, `|`, a prime, a comma)
 * dropped from its runner-ups: its place settled them, and the layout's look-alike choice must not
 * take one back where the line it measures by is a script's (`x^{2}+/`, the `/` then a superscript).
 */
function settledOne(s: MathSymbol): MathSymbol | null {
  const one = preferAlternative(s, '1', 0);
  return one && { ...one, alternatives: one.alternatives?.filter((a) => a.latex !== '|' && !ONE_LOOKALIKES.has(a.latex)) };
}

/** The nearest symbol left or right of `s` whose height overlaps it at all (a raised prime shares little of its symbol's). */
function nearestBeside(s: MathSymbol, symbols: readonly MathSymbol[]): MathSymbol | undefined {
  return symbols.filter((o) => o !== s && o.latex !== RULE && sharedHeight(o, s) > 0).sort((a, b) => gap(a, s) - gap(b, s))[0];
}
