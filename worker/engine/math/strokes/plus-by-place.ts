import { RULE, type MathSymbol } from '../types.js';
import { isFractionBar } from './operators.js';
import { gap, neighbours, onOneLine, settledAmong } from './relabel.js';

/** Letters a hand draws like `+`: each sits on the baseline (a `t`'s foot, a `T`'s stem, an upright `f`). */
const PLUS_LOOKALIKES = ['t', 'T', 'f'];
const PLUS_SHAPE = ['+', ...PLUS_LOOKALIKES];
/** Letters and digits whose foot marks the baseline (no descender). */
const ON_BASELINE = /^[0-9abcdehik-orsu-xzA-Z]$/;
/**
 * A letter's foot sits within this share of its neighbour's height of the baseline (a loaded pen,
 * a baseline that slopes between the neighbours); one further off, up to OFF_BASELINE_MOST above it
 * or DESCENT_MOST below, hangs on the axis as a `+` does. Beyond, it is a script or a descender.
 */
const ON_BASELINE_LEAST = 0.06;
const OFF_BASELINE_MOST = 0.25;
const DESCENT_MOST = 0.35;
/** A `+` is centred on the axis: its middle this far above the baseline at least (a subscript's hangs at or below it). */
const MIDDLE_ABOVE = 0.2;
/** A neighbour further off than this many of its heights is on another part of the line (a fraction's row, a radicand). */
const REACH = 1.5;
/** Operators and relations: a `+` beside one of them (`-+`, `++`, `=+`) is rarer than the letter. */
const OPERATORS = new Set(['+', '-', '=', '<', '>', '\\pm', '\\times', '\\leq', '\\geq']);

/**
 * `+` against the letters drawn like it (`t`, `T`, `f`), settled by where the mark sits on its line:
 * those letters stand on the baseline, a `+` is centred on the maths axis with its foot wherever its
 * size puts it, mostly a little below the baseline (TeX's `+` descends 0.08 em) or above it. The
 * baseline at the mark is the feet of its nearest neighbours on each side that sit on it (letters
 * without descender, digits), joined by a line where there are two, so a sloping line counts as level.
 * A mark of this shape whose foot is off that baseline, yet not so far as a script or a descender,
 * and whose middle is well above it (a subscript's hangs at or below it), is `+` when the classifier
 * gives `+` any probability, with the shape's confidence (all four readings together: the place,
 * not the classifier, chose among them); a `+` read so is confirmed the same way. One beside an
 * operator or a minus keeps its reading (`-t`, `+T`: two operators side by side are rarer still).
 * A mark standing on the baseline, or with no neighbour on it, keeps its reading (operators.ts reads
 * a `t` between two operands as `+` by its neighbours instead).
 */
export function preferPlusByPlace(symbols: MathSymbol[]): MathSymbol[] {
  return symbols.map((s) => {
    if (!PLUS_SHAPE.includes(s.latex)) return s;
    const readings = [{ latex: s.latex, confidence: s.confidence }, ...(s.alternatives ?? [])];
    if (!readings.some((r) => r.latex === '+') || !readings.some((r) => PLUS_LOOKALIKES.includes(r.latex))) return s;
    const { left, right } = neighbours(s, symbols);
    const operator = (o: MathSymbol | undefined) => o !== undefined && (OPERATORS.has(o.latex) || (o.latex === RULE && !isFractionBar(o, symbols)));
    if (operator(left) || operator(right)) return s;
    const place = placeOnLine(s, symbols);
    if (!place) return s;
    const { lift, middle } = place;
    const offBaseline = (lift >= ON_BASELINE_LEAST && lift <= OFF_BASELINE_MOST) || (lift <= -ON_BASELINE_LEAST && lift >= -DESCENT_MOST);
    const hangs = offBaseline && middle >= MIDDLE_ABOVE;
    if (!hangs) return s;
    // The letters set aside are no rival reading: the layout's look-alike choice must not take them back.
    const plus = settledAmong(s, '+', PLUS_SHAPE);
    return { ...plus, alternatives: plus.alternatives?.filter((a) => !PLUS_LOOKALIKES.includes(a.latex)) };
  });
}

/**
 * Where the mark sits against the baseline at its middle, in its neighbours' height: how far its
 * foot is above it (negative below) and its middle; the baseline drawn through the feet of the
 * nearest neighbour on each side that stands on it. Undefined without one.
 */
export function placeOnLine(s: MathSymbol, symbols: readonly MathSymbol[]): { lift: number; middle: number } | undefined {
  const centre = (s.box.x0 + s.box.x1) / 2;
  const standing = symbols.filter(
    (o) => o !== s && ON_BASELINE.test(o.latex) && onOneLine(o, s) && o.box.y1 >= (s.box.y0 + s.box.y1) / 2 && gap(o, s) <= REACH * (o.box.y1 - o.box.y0),
  );
  const nearest = (side: MathSymbol[]) => side.sort((a, b) => gap(a, s) - gap(b, s))[0];
  const left = nearest(standing.filter((o) => o.box.x1 <= centre));
  const right = nearest(standing.filter((o) => o.box.x0 >= centre));
  const feet = [left, right].filter((o): o is MathSymbol => o !== undefined);
  if (!feet.length) return undefined;
  const across = (o: MathSymbol) => (o.box.x0 + o.box.x1) / 2;
  const baseline =
    left && right && across(right) > across(left)
      ? left.box.y1 + ((right.box.y1 - left.box.y1) * (centre - across(left))) / (across(right) - across(left))
      : feet[0].box.y1;
  const height = feet.reduce((sum, o) => sum + (o.box.y1 - o.box.y0), 0) / feet.length;
  return { lift: (baseline - s.box.y1) / height, middle: (baseline - (s.box.y0 + s.box.y1) / 2) / height };
}
