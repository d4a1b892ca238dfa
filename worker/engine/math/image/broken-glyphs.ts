import type { Box } from '../types.js';
import type { SymbolClassifier } from './classifier.js';
import type { ComponentMap } from './components.js';
import { bestJoins } from './join-by-score.js';
import { SLIVERS, type ClassifiedGroup } from './split.js';

/** A piece read less surely than this may be part of a glyph the raster broke. */
const UNSURE = 0.7;
/** The joined read is at least this sure. */
const JOINED_SURE = 0.6;
/** Columns of paper between the pieces: the hairline a raster loses is one pixel wide. */
const MAX_GAP_PX = 1;
/** Rows of the smaller piece allowed outside the larger one's: the pieces of one glyph share its rows. */
const ROW_SLACK_PX = 1;
/** The joined box is one glyph's, at most this many times wider than tall: two letters of a word side by side are wider. */
const MAX_ASPECT = 1.25;

const h = (b: Box): number => b.y1 - b.y0;

/**
 * Glyphs a typeset raster broke in two side by side. At 150 dpi a script-size `h` loses the
 * hairline where its arch leaves the stem, and comes out of the component step as a stem (read as
 * a prime) and an arch (read as `\iota`). Two neighbouring pieces at most a pixel apart, the
 * shorter within the taller's rows, one of them read unsurely, are classified as one crop; the
 * pair becomes one glyph when that read is sure and likelier than the parts on geometric mean
 * (join-by-score.ts's measure), and is no stroke end (a prime, a comma).
 */
export async function joinBroken(
  map: ComponentMap,
  items: ClassifiedGroup[],
  classifier: SymbolClassifier,
  emPx: number | undefined,
): Promise<ClassifiedGroup[]> {
  const pairs = candidatePairs(items);
  if (!pairs.length) return items;
  const joins = await bestJoins(
    map,
    pairs,
    classifier,
    emPx,
    (item) => item.label!.confidence,
    (label) => label.confidence >= JOINED_SURE && !SLIVERS.has(label.latex),
  );
  const used = new Set([...joins.values()].flatMap(({ a, b }) => [a, b]));
  return items.flatMap((item) => joins.get(item)?.joined ?? (used.has(item) ? [] : [item]));
}

/** Neighbouring classified pieces, left to right, that may be one broken glyph. */
function candidatePairs(items: ClassifiedGroup[]): Array<[ClassifiedGroup, ClassifiedGroup]> {
  const pairs: Array<[ClassifiedGroup, ClassifiedGroup]> = [];
  for (const a of items) {
    for (const b of items) {
      if (a === b || !a.label || !b.label || Math.min(a.label.confidence, b.label.confidence) >= UNSURE) continue;
      const [left, right] = [a.group.box, b.group.box];
      const gap = right.x0 - left.x1;
      if (left.x0 >= right.x0 || gap < 0 || gap > MAX_GAP_PX) continue;
      const [tall, short] = h(left) >= h(right) ? [left, right] : [right, left];
      if (short.y0 < tall.y0 - ROW_SLACK_PX || short.y1 > tall.y1 + ROW_SLACK_PX) continue;
      if (right.x1 - left.x0 > MAX_ASPECT * h(tall)) continue;
      pairs.push([a, b]);
    }
  }
  return pairs;
}
