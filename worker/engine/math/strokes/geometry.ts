import type { Box, Stroke } from '../types.js';

/** Measurements of pen strokes, in the strokes' own units, used by line splitting and grouping. */

export const boxWidth = (b: Box): number => b.x1 - b.x0;
export const boxHeight = (b: Box): number => b.y1 - b.y0;
export const unionBox = (a: Box, b: Box): Box => ({ x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) });

/** The box through the outermost points (a tap gives a zero-size box). */
export function strokeBox(stroke: Stroke): Box {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (let i = 0; i < stroke.x.length; i++) {
    x0 = Math.min(x0, stroke.x[i]);
    x1 = Math.max(x1, stroke.x[i]);
    y0 = Math.min(y0, stroke.y[i]);
    y1 = Math.max(y1, stroke.y[i]);
  }
  return { x0, y0, x1, y1 };
}

export function strokesBox(strokes: readonly Stroke[]): Box {
  return strokes.map(strokeBox).reduce(unionBox);
}

/**
 * The height of a typical symbol: the median height of the strokes that are neither flat (bars)
 * nor dots. Every other threshold scales with it, so the same writing at any zoom groups alike.
 * Dots are judged against the upper-quartile stroke, not the largest: one long fraction bar must
 * not make every letter look like a dot, nor a row of dots make a letter look large.
 */
export function typicalSymbolHeight(strokes: readonly Stroke[]): number {
  const boxes = strokes.map(strokeBox);
  const extents = boxes.map((b) => Math.max(boxWidth(b), boxHeight(b))).sort((a, b) => a - b);
  const upperQuartile = extents[Math.floor(extents.length * 0.75)];
  const heights = boxes
    .filter((b) => boxHeight(b) >= 0.4 * boxWidth(b) && Math.max(boxWidth(b), boxHeight(b)) >= 0.3 * upperQuartile)
    .map(boxHeight)
    .sort((a, b) => a - b);
  if (!heights.length) return Math.max(extents[extents.length - 1] / 3, 1e-6);
  return Math.max(heights[Math.floor(heights.length / 2)], 1e-6);
}

function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / length2));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

/** Shortest distance from a point to a polyline (a single point counts as a polyline). */
export function pointToStroke(px: number, py: number, s: Stroke): number {
  if (s.x.length === 1) return Math.hypot(px - s.x[0], py - s.y[0]);
  let best = Infinity;
  for (let i = 1; i < s.x.length; i++) best = Math.min(best, segmentDistance(px, py, s.x[i - 1], s.y[i - 1], s.x[i], s.y[i]));
  return best;
}

function segmentsCross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const side = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) => (qx - px) * (ry - py) - (qy - py) * (rx - px);
  const d1 = side(cx, cy, dx, dy, ax, ay);
  const d2 = side(cx, cy, dx, dy, bx, by);
  const d3 = side(ax, ay, bx, by, cx, cy);
  const d4 = side(ax, ay, bx, by, dx, dy);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

/** Shortest distance between two polylines: 0 when they cross. */
export function strokeDistance(a: Stroke, b: Stroke): number {
  for (let i = 1; i < a.x.length; i++) {
    for (let j = 1; j < b.x.length; j++) {
      if (segmentsCross(a.x[i - 1], a.y[i - 1], a.x[i], a.y[i], b.x[j - 1], b.y[j - 1], b.x[j], b.y[j])) return 0;
    }
  }
  let best = Infinity;
  for (let i = 0; i < a.x.length; i++) best = Math.min(best, pointToStroke(a.x[i], a.y[i], b));
  for (let j = 0; j < b.x.length; j++) best = Math.min(best, pointToStroke(b.x[j], b.y[j], a));
  return best;
}

/**
 * A straight, nearly horizontal line (minus, fraction bar, overline): wide against its height,
 * within about 12° of horizontal, and no point further from the fitted line than a few per cent
 * of its length, so a tilde's wave or an arrow's head disqualifies it while a hand's wobble does not.
 */
export function isStraightBar(strokes: readonly Stroke[], symbolHeight: number): boolean {
  const xs = strokes.flatMap((s) => s.x);
  const ys = strokes.flatMap((s) => s.y);
  const box = strokesBox(strokes);
  const width = boxWidth(box);
  if (width < 0.25 * symbolHeight || width < 2.5 * boxHeight(box)) return false;
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxx = 0,
    sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i] - mx) ** 2;
    sxy += (xs[i] - mx) * (ys[i] - my);
  }
  const slope = sxx === 0 ? Infinity : sxy / sxx;
  if (Math.abs(slope) > 0.21) return false;
  const norm = Math.hypot(1, slope);
  const deviation = Math.max(...xs.map((x, i) => Math.abs(ys[i] - my - slope * (x - mx)) / norm));
  return deviation <= 0.05 * width + 0.02 * symbolHeight;
}

/**
 * A radical sign drawn in one go: a tick down to a low point left of centre, a rise, and a
 * vinculum along the top from there over the right part. Γ has a top bar too but starts it at its
 * left edge and has no low point away from that edge; 7 has ink in the lower right where a
 * radicand sits. Real hands vary: the stroke may start with a flick at the very top-left, the tick
 * may be drawn wide, the vinculum may end in a short downward serif or be left out (a check mark),
 * and the first flick may start low.
 */
export function isRadicalStroke(strokes: readonly Stroke[], symbolHeight: number): boolean {
  return radicalSign(strokes, symbolHeight) !== null;
}

/** x of the bottom of the tick of the radical sign `strokes` draw, or null when they draw none (isRadicalStroke). */
export function radicalHookEnd(strokes: readonly Stroke[], symbolHeight: number): number | null {
  return radicalSign(strokes, symbolHeight)?.hookEnd ?? null;
}

/**
 * The radical sign `strokes` draw, or null. `loose` marks the outlines that other marks share
 * (a check mark with a short cap: an arc of a cursive `x`; a tick at the very left edge: an `r`; a
 * vinculum sloping down: the arm of a `k`): grouping.ts takes those only over a radicand that
 * sits under the vinculum.
 */
export function radicalSign(strokes: readonly Stroke[], symbolHeight: number): { hookEnd: number; loose: boolean } | null {
  const box = strokesBox(strokes);
  const w = boxWidth(box);
  const h = boxHeight(box);
  if (h < 0.6 * symbolHeight || w < 0.5 * h) return null;
  // x in units of the sign's height from its left edge, y in 0..1 from its top: a long radicand
  // stretches the vinculum, never the tick.
  const points = strokes.flatMap((s) => s.x.map((x, i) => ({ u: (x - box.x0) / h, y: (s.y[i] - box.y0) / h })));
  const lowest = points.reduce((a, b) => (b.y > a.y ? b : a));
  // The vinculum is the top ink right of the tick's low point (a flick at the top-left is not it).
  const top = points.filter((p) => p.y <= 0.2 && p.u > lowest.u);
  if (!top.length) return null;
  const tickWidth = Math.min(...top.map((p) => p.u));
  const right = w / h;
  // The vinculum must reach the right edge (drawn sloping down, it gets there lower) and be long
  // enough to cover a symbol (the left arc of an italic x has the tick's shape but only a short cap).
  const topEnd = Math.max(...top.map((p) => p.u));
  const slopedEnd = Math.max(...points.filter((p) => p.y <= SLOPED_VINCULUM && p.u > lowest.u).map((p) => p.u));
  // A sign drawn without a vinculum (√ as a check mark) rises from its low point, left of centre,
  // to the top-right corner, or to a short cap before it after a left arm of some height.
  const rise = tickWidth / right;
  const leftArm = lowest.y - Math.min(...points.filter((p) => p.u < lowest.u).map((p) => p.y));
  const strictCheck = w >= h && lowest.u <= 0.5 * right && rise >= 0.85;
  const looseCheck = w >= h && lowest.u <= CHECK_LOW * right && rise >= CHECK_RISE && leftArm >= CHECK_ARM;
  if (tickWidth < 0.15 || slopedEnd < 0.95 * right) return null;
  if (!(strictCheck || looseCheck) && (tickWidth > 0.75 * right || slopedEnd - tickWidth < 0.45)) return null;
  const lowerRight = points.filter((p) => p.u > tickWidth + 0.15 && p.y > 0.35).length;
  if (lowerRight > SERIF_SHARE * points.length) return null;
  if (lowest.u > tickWidth + 0.05) return null;
  // The low point may sit at the left edge (a tick drawn straight down, then up to the top); Γ's
  // stem rises there too, but straight up, so its top starts under tickWidth's 0.15.
  const strictVinculum = tickWidth <= 0.75 * right && topEnd - tickWidth >= 0.45;
  const loose = lowest.u < 0.08 || topEnd < 0.95 * right || !(strictCheck || strictVinculum);
  if (loose && !dippedInto(strokes, box, h)) return null;
  return { hookEnd: box.x0 + lowest.u * h, loose };
}

/**
 * Whether the pen goes down into the tick's low point and comes up out of it within one stroke, by
 * CHECK_ARM of the sign's height each way: a tick is a V, while a stroke that merely ends low (the
 * `/` of an `x`) is not.
 */
function dippedInto(strokes: readonly Stroke[], box: Box, h: number): boolean {
  const low = strokes.map((s) => s.y.indexOf(Math.max(...s.y)));
  const k = strokes.reduce((best, s, i) => (s.y[low[i]] > strokes[best].y[low[best]] ? i : best), 0);
  const { y } = strokes[k];
  const i = low[k];
  const depth = CHECK_ARM * h;
  return Math.min(...y.slice(0, i + 1)) <= y[i] - depth && Math.min(...y.slice(i)) <= y[i] - depth && y[i] >= box.y1 - 1e-9;
}

/** Share of a radical's points that may hang below its vinculum's right part (an end serif). */
const SERIF_SHARE = 0.1;
/** How far down (in the sign's heights) the right end of a vinculum drawn sloping may reach. */
const SLOPED_VINCULUM = 0.35;
/** A loose check mark's low point lies in this left share of its width, its rise reaches the top right of CHECK_RISE, its left arm rises CHECK_ARM. */
const CHECK_LOW = 0.65;
const CHECK_RISE = 0.6;
const CHECK_ARM = 0.25;
