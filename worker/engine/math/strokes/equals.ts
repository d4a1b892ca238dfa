import type { Box } from '../types.js';
import { boxHeight, boxWidth } from './geometry.js';

/** A bar of `=` is at most this tall and this wide (in symbol heights), and at least this many times as wide as tall. */
const FLAT_HEIGHT = 0.3;
const LONGEST = 1.5;
const FLATNESS = 2;
/** The bars' centres are at most this far apart vertically (in symbol heights). */
const MOST_GAP = 0.6;
/** The shorter bar is at least this share of the longer, and lies over it by at least this share of its width. */
const SIMILAR = 0.5;
const OVERLAP = 0.5;

/**
 * Pairs of pen strokes that draw `=`: two short flat marks of similar length, one over the other
 * with nothing between them. A hand draws them shifted and unequal, which the image front end's
 * rule for typeset `=` (centres aligned within 15 %) refuses; fraction bars stacked in a nested
 * fraction have their numerator between them. Drawing order is not asked: a writer may add the
 * second bar late.
 */
export function equalsPairs(boxes: readonly Box[], symbolHeight: number): Array<[number, number]> {
  const shape = boxes.map((b) => boxHeight(b) <= FLAT_HEIGHT * symbolHeight && boxWidth(b) >= FLATNESS * boxHeight(b) && boxWidth(b) <= LONGEST * symbolHeight);
  // A bar that crosses other ink is part of another symbol: the bar of π, of T, of +.
  const flat = shape.map((f, i) => f && !boxes.some((b, k) => k !== i && !shape[k] && intersect(b, boxes[i])));
  const pairs: Array<[number, number]> = [];
  const taken = new Set<number>();
  for (let i = 0; i < boxes.length; i++) {
    if (!flat[i] || taken.has(i)) continue;
    for (let j = i + 1; j < boxes.length; j++) {
      if (!flat[j] || taken.has(j) || !stacked(boxes[i], boxes[j], symbolHeight)) continue;
      const [upper, lower] = boxes[i].y0 <= boxes[j].y0 ? [boxes[i], boxes[j]] : [boxes[j], boxes[i]];
      const between = boxes.some(
        (b, k) => k !== i && k !== j && centreIn(b, { x0: Math.max(upper.x0, lower.x0), x1: Math.min(upper.x1, lower.x1), y0: upper.y1, y1: lower.y0 }),
      );
      if (between) continue;
      pairs.push([i, j]);
      taken.add(i).add(j);
      break;
    }
  }
  return pairs;
}

function stacked(a: Box, b: Box, symbolHeight: number): boolean {
  const [short, long] = boxWidth(a) <= boxWidth(b) ? [a, b] : [b, a];
  if (boxWidth(short) < SIMILAR * boxWidth(long)) return false;
  const shared = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  if (shared < OVERLAP * boxWidth(short)) return false;
  const gap = Math.abs((a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2);
  return gap > Math.max(boxHeight(a), boxHeight(b)) / 2 && gap <= MOST_GAP * symbolHeight;
}

const centreIn = (b: Box, area: Box): boolean => {
  const cx = (b.x0 + b.x1) / 2;
  const cy = (b.y0 + b.y1) / 2;
  return cx > area.x0 && cx < area.x1 && cy > area.y0 && cy < area.y1;
};

const intersect = (a: Box, b: Box): boolean => a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1;
