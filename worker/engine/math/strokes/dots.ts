import type { Box, Stroke } from '../types.js';
import { strokesBox } from './geometry.js';

/**
 * A pen dot is a tap or a tiny flick, far smaller than a typeset dot, so the image rules (which
 * expect a blob a few stroke widths across) miss it. These rules join dots to their symbols from
 * the writing's symbol height instead: the dot over a narrow stem (i j ;), under one (! ?), and
 * the two dots of a colon, and the dots of ÷ with their bar. Thresholds are in symbol heights.
 */
const DOT_SIZE = 0.22;
const DOT_GAP = 0.8;
const STEM_END_WIDTH = 0.45;
const DOT_OFFSET = 0.45;

const cx = (b: Box): number => (b.x0 + b.x1) / 2;
const size = (b: Box): number => Math.max(b.x1 - b.x0, b.y1 - b.y0);

/** Horizontal span of the stroke points within `rows` of the top (`fromTop`) or bottom of the box. */
function endSpan(strokes: readonly Stroke[], box: Box, rows: number, fromTop: boolean): { x0: number; x1: number } {
  const xs = strokes.flatMap((s) => s.x.filter((_, i) => (fromTop ? s.y[i] <= box.y0 + rows : s.y[i] >= box.y1 - rows)));
  return { x0: Math.min(...xs), x1: Math.max(...xs) };
}

/**
 * Groups of strokes (indices into `strokes`) with every dot joined to the symbol it belongs to;
 * groups that are not dots, or whose dot has no partner, come back unchanged.
 */
export function joinDots(groups: number[][], strokes: readonly Stroke[], symbolHeight: number): number[][] {
  const h = symbolHeight;
  const members = groups.map((ids) => ids.map((i) => strokes[i]));
  const boxes = members.map(strokesBox);
  const isDot = boxes.map((b) => size(b) <= DOT_SIZE * h);
  const root = groups.map((_, i) => i);
  const find = (i: number): number => (root[i] === i ? i : (root[i] = find(root[i])));
  const score = (dot: number, other: number): number => {
    const d = boxes[dot];
    const o = boxes[other];
    if (isDot[other]) {
      const gap = Math.max(d.y0, o.y0) - Math.min(d.y1, o.y1);
      return Math.abs(cx(d) - cx(o)) <= 0.25 * h && gap >= 0.15 * h && gap <= DOT_GAP * h ? gap : Infinity;
    }
    const height = o.y1 - o.y0;
    const above = d.y1 <= o.y0 + 0.05 * h;
    const below = d.y0 >= o.y1 - 0.05 * h;
    if ((!above && !below) || height < (above ? 0.35 : 0.8) * h) return Infinity;
    const gap = above ? o.y0 - d.y1 : d.y0 - o.y1;
    if (gap > DOT_GAP * h) return Infinity;
    const end = endSpan(members[other], o, 0.25 * height, above);
    if (end.x1 - end.x0 > STEM_END_WIDTH * h || Math.abs(cx(d) - (end.x0 + end.x1) / 2) > DOT_OFFSET * h) return Infinity;
    return gap;
  };
  // ÷ first: a short bar with a dot centred over it and another under it.
  const taken = new Set<number>();
  boxes.forEach((bar, b) => {
    const width = bar.x1 - bar.x0;
    if (isDot[b] || width < 2.5 * (bar.y1 - bar.y0)) return;
    const near = (above: boolean) =>
      boxes.findIndex(
        (d, i) =>
          isDot[i] &&
          !taken.has(i) &&
          Math.abs(cx(d) - cx(bar)) <= 0.25 * width &&
          (above ? bar.y0 - d.y1 : d.y0 - bar.y1) >= 0 &&
          (above ? bar.y0 - d.y1 : d.y0 - bar.y1) <= 0.7 * h,
      );
    const over = near(true);
    const under = near(false);
    if (over < 0 || under < 0) return;
    for (const d of [over, under]) (taken.add(d), (root[find(d)] = find(b)));
  });
  groups.forEach((_, dot) => {
    if (!isDot[dot] || taken.has(dot)) return;
    let best = -1;
    let bestGap = Infinity;
    groups.forEach((__, other) => {
      if (other === dot) return;
      const gap = score(dot, other);
      if (gap < bestGap) ((best = other), (bestGap = gap));
    });
    if (best >= 0) root[find(dot)] = find(best);
  });
  const joined = new Map<number, number[]>();
  groups.forEach((ids, i) => joined.set(find(i), [...(joined.get(find(i)) ?? []), ...ids]));
  return [...joined.values()];
}
