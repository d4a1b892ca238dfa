import type { Box } from '../types.js';
import type { Component, ComponentMap } from './components.js';

/** Measurements of one component's pixels inside its box, used by the merge and RULE decisions. */

const width = (b: Box): number => b.x1 - b.x0;
const height = (b: Box): number => b.y1 - b.y0;

/**
 * Typical stroke width in pixels: the median length of all horizontal and vertical ink runs. Runs
 * across a stroke far outnumber runs along one, so the median lands on the stroke's thickness.
 */
export function strokeWidth(map: ComponentMap): number {
  const counts = new Uint32Array(Math.max(map.width, map.height) + 2);
  let total = 0;
  const scan = (length: number, lines: number, at: (line: number, k: number) => boolean): void => {
    for (let line = 0; line < lines; line++) {
      let run = 0;
      for (let k = 0; k <= length; k++) {
        if (k < length && at(line, k)) run++;
        else if (run) {
          counts[run]++;
          total++;
          run = 0;
        }
      }
    }
  };
  const { labels, width: w, height: h } = map;
  scan(w, h, (y, x) => labels[y * w + x] !== 0);
  scan(h, w, (x, y) => labels[y * w + x] !== 0);
  if (!total) return 1;
  let seen = 0;
  for (let run = 1; run < counts.length; run++) {
    seen += counts[run];
    if (seen * 2 >= total) return run;
  }
  return 1;
}

/** Per column of the component's box: how many of its pixels it holds, their mean row, and the rows they span. */
function columnProfile(c: Component, map: ComponentMap): { count: Float64Array; centre: Float64Array; span: Float64Array } {
  const count = new Float64Array(width(c.box));
  const centre = new Float64Array(width(c.box));
  const first = new Float64Array(width(c.box)).fill(Infinity);
  const last = new Float64Array(width(c.box)).fill(-Infinity);
  for (let y = c.box.y0; y < c.box.y1; y++) {
    for (let x = c.box.x0; x < c.box.x1; x++) {
      if (map.labels[y * map.width + x] !== c.id) continue;
      const i = x - c.box.x0;
      count[i]++;
      centre[i] += y;
      if (y < first[i]) first[i] = y;
      last[i] = y;
    }
  }
  const span = new Float64Array(width(c.box));
  for (let i = 0; i < count.length; i++) {
    centre[i] /= count[i] || 1;
    span[i] = count[i] ? last[i] - first[i] + 1 : 0;
  }
  return { count, centre, span };
}

/**
 * A rule is a straight filled bar: long against its thickness, every column one unbroken run about
 * as thick as the others, and column centres on a line within a few degrees of horizontal. A tilde
 * is as flat but its centres wave; an arrow is flat but its head thickens some columns; ∞ and a
 * small `>` can pass the thickness and centre tests at 150 dpi, but their columns cross two strokes
 * with background between.
 */
export function isRule(c: Component, map: ComponentMap): boolean {
  const w = width(c.box);
  const thickness = c.area / w;
  if (w < 4 || w < 3 * Math.max(thickness, 1.5)) return false;
  // The inner columns alone would pass a radical whose vinculum touches its sign: the box must be flat too.
  if (height(c.box) > 0.1 * w + 2 * thickness + 2) return false;
  const { count, centre, span } = columnProfile(c, map);
  if (hasArrowHead(span, count)) return false;
  // The end columns of an anti-aliased or rounded bar are thinner; judge the inner 80 %.
  const from = Math.floor(w * 0.1);
  const to = Math.ceil(w * 0.9);
  let n = 0,
    sx = 0,
    sy = 0,
    sxx = 0,
    sxy = 0,
    sc = 0,
    scc = 0;
  for (let i = from; i < to; i++) {
    if (span[i] > count[i]) return false;
    n++;
    sx += i;
    sy += centre[i];
    sxx += i * i;
    sxy += i * centre[i];
    sc += count[i];
    scc += count[i] * count[i];
  }
  const slope = (n * sxy - sx * sy) / (n * sxx - sx * sx || 1);
  const intercept = (sy - slope * sx) / n;
  let residual = 0;
  for (let i = from; i < to; i++) residual += (centre[i] - (slope * i + intercept)) ** 2;
  const meanCount = sc / n;
  const spread = Math.sqrt(Math.max(0, scc / n - meanCount * meanCount)) / meanCount;
  return Math.abs(slope) <= 0.1 && Math.sqrt(residual / n) <= 0.5 + 0.2 * thickness && spread <= 0.35;
}

/** Share of the width at each end where an arrow's head may lie. */
const HEAD_SHARE = 0.3;

/**
 * A small `\vec` at 150 dpi is a bar a pixel thick with a head two or three pixels tall at one
 * end, flat enough to pass for a rule; a rule is as thick at its ends as in its middle.
 */
function hasArrowHead(span: Float64Array, count: Float64Array): boolean {
  const n = span.length;
  const end = Math.max(1, Math.floor(n * HEAD_SHARE));
  const middle = [...count.slice(end, n - end)].sort((a, b) => a - b);
  if (!middle.length) return false;
  const bar = middle[Math.floor(middle.length / 2)];
  const head = Math.max(...span.slice(0, end), ...span.slice(n - end));
  return head >= Math.max(3, 2 * bar);
}

/** Flat: much wider than tall, whether or not it is a clean rule (Ξ's serifed bars are flat but not rules). */
export function isFlat(c: Component): boolean {
  return width(c.box) >= 2.5 * height(c.box);
}

/** Leftmost and rightmost column holding the component's ink within rows [y0, y1). */
export function rowSpan(c: Component, map: ComponentMap, y0: number, y1: number): { x0: number; x1: number } | null {
  let x0 = Infinity;
  let x1 = -Infinity;
  for (let y = Math.max(y0, c.box.y0); y < Math.min(y1, c.box.y1); y++) {
    for (let x = c.box.x0; x < c.box.x1; x++) {
      if (map.labels[y * map.width + x] !== c.id) continue;
      if (x < x0) x0 = x;
      if (x + 1 > x1) x1 = x + 1;
    }
  }
  return x0 === Infinity ? null : { x0, x1 };
}

/** Longest horizontal run of the component's ink in row y. */
export function longestRun(c: Component, map: ComponentMap, y: number): number {
  let best = 0;
  let run = 0;
  for (let x = c.box.x0; x < c.box.x1; x++) {
    run = map.labels[y * map.width + x] === c.id ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

/**
 * A radical sign: a vinculum across the top reaching the right edge, and below mid-height no ink
 * right of where the vinculum begins (the hook's point lies to its left). Whatever lies inside its
 * box is the radicand, never part of the sign.
 */
export function isRadicalLike(c: Component, map: ComponentMap): boolean {
  const w = width(c.box);
  const h = height(c.box);
  const topRows = Math.max(2, Math.round(h * 0.12));
  const top = rowSpan(c, map, c.box.y0, c.box.y0 + topRows);
  if (!top || top.x1 < c.box.x1 - 1 || top.x1 - top.x0 < 0.4 * w) return false;
  const lower = rowSpan(c, map, c.box.y0 + Math.ceil(h * 0.5), c.box.y1);
  return lower === null || lower.x1 <= top.x0 + 0.2 * w;
}

/** A frame's sides are inked along this share of their length… */
const FRAME_SIDE = 0.9;
/** …and its ink covers at most this share of its box (a filled glyph covers more). */
const FRAME_FILL = 0.35;

/**
 * A `\boxed` frame: one component whose four sides are inked nearly end to end around an empty
 * middle, tall and wide enough to hold a glyph (at least six strokes each way).
 */
export function isFrame(c: Component, map: ComponentMap, stroke: number): boolean {
  const [width, height] = [c.box.x1 - c.box.x0, c.box.y1 - c.box.y0];
  if (width < 6 * stroke || height < 6 * stroke || c.area > FRAME_FILL * width * height) return false;
  const band = Math.max(1, Math.ceil(stroke)) + 1;
  const rowInked = (y: number) => longestRun(c, map, y) >= FRAME_SIDE * width;
  const columnInked = (x: number) => {
    let inked = 0;
    for (let y = c.box.y0; y < c.box.y1; y++) if (map.labels[y * map.width + x] === c.id) inked++;
    return inked >= FRAME_SIDE * height;
  };
  const anyOf = (from: number, to: number, inked: (at: number) => boolean) => {
    for (let at = from; at < to; at++) if (inked(at)) return true;
    return false;
  };
  return (
    anyOf(c.box.y0, c.box.y0 + band, rowInked) &&
    anyOf(c.box.y1 - band, c.box.y1, rowInked) &&
    anyOf(c.box.x0, c.box.x0 + band, columnInked) &&
    anyOf(c.box.x1 - band, c.box.x1, columnInked)
  );
}
