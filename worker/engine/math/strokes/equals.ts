import type { Classification } from '../image/classifier.js';
import type { Box } from '../types.js';
import { boxHeight, boxWidth } from './geometry.js';

/** A bar of `=` is at most this tall and this wide (in symbol heights), and at least this many times as wide as tall. */
const FLAT_HEIGHT = 0.3;
const LONGEST = 1.5;
const FLATNESS = 2;
/** The bars' centres are at most this far apart vertically (in symbol heights). */
const MOST_GAP = 0.6;
/** The shorter bar is at least this share of the longer, and lies over it by at least this share of its width. */
const SIMILAR = 0.35;
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

/**
 * Signs of two flat strokes other than `=`, with how often maths writes each for every time it
 * writes `=` (math-mode tokens of TeX Live's documentation, models/training/maths-symbol-frequency.py:
 * `=` 984, `\Rightarrow` 8, `\approx` 5 …; a sign never seen there counts once).
 */
const OTHER_FLAT_PAIRS: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries({
    '\\approx': 5,
    '\\equiv': 2,
    '\\Rightarrow': 8,
    '\\simeq': 1,
    '\\Leftrightarrow': 1,
    '\\Leftarrow': 1,
    '\\cong': 1,
    '\\rightleftharpoons': 1,
  }).map(([sign, count]) => [sign, count / 984]),
);

/**
 * A group of two strokes that equalsPairs pairs is `=` (the pair was grouped for being the two bars
 * of one): two short bars read alone look like `:` or `\div` to the classifier, and a second bar
 * drawn short like a `.`. Only another sign of two flat strokes (`\approx`, `\Rightarrow` …)
 * can keep the pair, where the classifier's probability for it, weighed by how rare it is against
 * `=`, still beats the rest; `=` gets the rest as its confidence.
 */
export function equalsFromPair(label: Classification, boxes: readonly Box[], symbolHeight: number): Classification {
  if (label.latex === '=' || boxes.length !== 2 || equalsPairs(boxes, symbolHeight).length !== 1) return label;
  const readings = [label, ...(label.alternatives ?? [])];
  const others = readings.filter((r) => OTHER_FLAT_PAIRS[r.latex] !== undefined);
  const equals = 1 - others.reduce((sum, r) => sum + r.confidence, 0);
  if (others.some((r) => r.confidence * OTHER_FLAT_PAIRS[r.latex]! > equals)) return label;
  return { latex: '=', confidence: equals, alternatives: readings.filter((r) => r.latex !== '=').slice(0, 3) };
}
