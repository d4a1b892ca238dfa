import type { Stroke } from '../../worker/engine/math/types.js';

/**
 * Hand-made pen strokes for tests: a few glyphs drawn as a person would, on a 1-unit symbol
 * height, placed with `at(glyph, x, y, size)` (top-left corner, in canvas units).
 */

type Glyph = Stroke[];

const line = (x0: number, y0: number, x1: number, y1: number): Stroke => ({ x: [x0, (x0 + x1) / 2, x1], y: [y0, (y0 + y1) / 2, y1] });

/** An arc of the ellipse centred (cx, cy) with radii (rx, ry), from angle a0 to a1 (radians, y down). */
function arc(cx: number, cy: number, rx: number, ry: number, a0: number, a1: number, steps = 16): Stroke {
  const angles = Array.from({ length: steps + 1 }, (_, k) => a0 + ((a1 - a0) * k) / steps);
  return { x: angles.map((a) => cx + rx * Math.cos(a)), y: angles.map((a) => cy + ry * Math.sin(a)) };
}

const join = (...parts: Stroke[]): Stroke => ({ x: parts.flatMap((p) => p.x), y: parts.flatMap((p) => p.y) });

export const PEN: Record<string, Glyph> = {
  // The cursive x: a ⊃-like curl and its mirror image, touching in the middle (two straight
  // diagonals would be ×).
  x: [
    { x: [0.02, 0.12, 0.22, 0.3, 0.38, 0.5, 0.6], y: [0.5, 0.42, 0.44, 0.7, 0.95, 0.98, 0.9] },
    { x: [0.62, 0.5, 0.38, 0.3, 0.22, 0.1, 0], y: [0.5, 0.42, 0.44, 0.7, 0.95, 0.98, 0.9] },
  ],
  '1': [join(line(0, 0.3, 0.35, 0), line(0.35, 0, 0.35, 1)), line(0.1, 1, 0.6, 1)],
  // A `1` as many write it: one stem, top to bottom, its foot flicked to the right (`[`, `L` or `\iota` to the classifier).
  '1 flicked': [{ x: [0.2, 0.1, 0.05, 0.01, 0.02, 0.1, 0.3], y: [0, 0.05, 0.3, 0.8, 0.97, 1, 0.96] }],
  '2': [join(arc(0.3, 0.28, 0.28, 0.28, Math.PI * 1.1, Math.PI * 2.2), line(0.55, 0.4, 0, 1), line(0, 1, 0.62, 1))],
  // Drawn as a hand does: round anticlockwise from the top right, then up and down the stem.
  a: [join(arc(0.28, 0.7, 0.26, 0.3, -0.6, -0.6 - 2 * Math.PI), line(0.56, 0.4, 0.56, 0.95), line(0.56, 0.95, 0.66, 0.98))],
  b: [join(line(0.05, 0, 0.05, 1), arc(0.3, 0.7, 0.25, 0.3, Math.PI, 3 * Math.PI))],
  '+': [line(0, 0.5, 0.7, 0.5), line(0.35, 0.15, 0.35, 0.85)],
  '=': [line(0, 0.38, 0.7, 0.38), line(0, 0.62, 0.7, 0.62)],
  '-': [line(0, 0.5, 0.6, 0.5)],
  // A zero as round as a capital O: begun at the top, anticlockwise, closed.
  '0': [arc(0.32, 0.5, 0.32, 0.5, -Math.PI / 2, -Math.PI / 2 - 2.1 * Math.PI, 24)],
};

/** The forward lean of most handwriting, as x shift per unit of height above the glyph's foot. */
const SLANT = 0.2;

function shift(s: Stroke, dx: number, dy: number, size = 1): Stroke {
  return { x: s.x.map((x, i) => (x + SLANT * (1 - s.y[i])) * size + dx), y: s.y.map((y) => y * size + dy) };
}

/** The glyph `name`, leaning forward, with its 1-unit box's top-left at (x, y), scaled by `size`. */
export function at(name: string, x: number, y: number, size = 1): Stroke[] {
  const glyph = PEN[name];
  if (!glyph) throw new Error(`no pen glyph ${name}`);
  return glyph.map((s) => shift(s, x, y, size));
}

/** A horizontal pen line (minus, fraction bar) from x0 to x1 at height y. */
export const bar = (x0: number, x1: number, y: number): Stroke => line(x0, y, x1, y + 0.01 * (x1 - x0));

/**
 * A radical sign written in one stroke: a short up-tick, down to the bottom, up to the top, and a
 * vinculum across to x1.
 */
export const radical = (x0: number, top: number, bottom: number, x1: number): Stroke => {
  const h = bottom - top;
  return { x: [x0, x0 + 0.15 * h, x0 + 0.35 * h, x0 + 0.6 * h, x1], y: [top + 0.6 * h, top + 0.5 * h, bottom, top, top] };
};
