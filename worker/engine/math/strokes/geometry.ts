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
  return radicalHookEnd(strokes, symbolHeight) !== null;
}

/** x of the bottom of the tick of the radical sign `strokes` draw, or null when they draw none (isRadicalStroke). */
export function radicalHookEnd(strokes: readonly Stroke[], symbolHeight: number): number | null {
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
  const topEnd = Math.max(...top.map((p) => p.u));
  // The vinculum must reach the right edge and be long enough to cover a symbol (the left arc of
  // an italic x has the tick's shape but only a short cap).
  // A sign drawn without a vinculum (√ as a check mark) rises from its low point, left of centre,
  // straight to the top-right corner.
  const checkMark = w >= h && lowest.u <= 0.5 * (w / h) && tickWidth >= 0.85 * (w / h);
  if (tickWidth < 0.15 || topEnd < 0.95 * (w / h)) return null;
  if (!checkMark && (tickWidth > 0.75 * (w / h) || topEnd - tickWidth < 0.45)) return null;
  const lowerRight = points.filter((p) => p.u > tickWidth + 0.15 && p.y > 0.35).length;
  if (lowerRight > SERIF_SHARE * points.length) return null;
  return lowest.u >= 0.08 && lowest.u <= tickWidth + 0.05 ? box.x0 + lowest.u * h : null;
}

/** Share of a radical's points that may hang below its vinculum's right part (an end serif). */
const SERIF_SHARE = 0.1;
