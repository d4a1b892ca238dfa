import type { Classification } from '../image/classifier.js';
import type { Box, Stroke } from '../types.js';
import { strokesBox } from './geometry.js';
import type { StrokeGroup } from './grouping.js';

/**
 * Second opinions on geometry's grouping, decided by the classifier's scores: a search over the
 * nearby segmentations of the time-ordered strokes. A glyph group of several strokes is split where
 * its strokes, in drawing order, fall into two side-by-side runs that each read better alone than
 * the whole does (two symbols written touching: `1` and `2` of `12`); two neighbouring glyphs drawn
 * one after the other and stacked over the same columns are joined when together they read better
 * than apart (a symbol whose strokes do not touch: a `5`'s flag, a `\Pi`'s bar, a `k`'s arms).
 * A straight bar that geometry took for a rule joins the glyph drawn just before or after it when it
 * lies across that glyph's top (flagTops) and together they read as a letter or digit surer than the
 * glyph alone: the flag of a `5` (read `S` and a minus), the top bar of an `F`, `E` or `T`.
 * A split shaped like a base and its script (scriptShaped) is taken unless the whole reads clearly better.
 */

/** Two runs are side by side when they share less than this fraction of the narrower one's width. */
const SIDE_BY_SIDE = 0.35;
/** Two glyphs are stacked when they share at least this fraction of the narrower one's width. */
const STACKED = 0.6;
/** A change must win by this factor in probability, so a coin toss leaves geometry's choice alone. */
const MARGIN = 1.25;
/** A script is at most this share of its base's height (TeX's 0.7, and a hand's variation; an `x` drawn as two arcs reaches 0.8). */
const SCRIPT_HEIGHT = 0.75;
/** The gap (in the base's widths) a script keeps from its base: a letter's strokes drawn apart (the arms of a `k`) all but touch. */
const SCRIPT_GAP = 0.05;
/**
 * A bar lies across a glyph's top when its middle is this far (in the glyph's heights) above the
 * glyph's top at most, or this far below it at most: a minus stands by a symbol's middle, a fraction
 * bar a gap above its denominator.
 */
const FLAG_ABOVE_TOP = 0.25;
const FLAG_BELOW_TOP = 0.1;
/** The share of the narrower of bar and glyph that their columns must share. */
const FLAG_SHARED = 0.2;
/** How far (in the glyph's widths) a bar may reach past the glyph on both sides and still be its flag, not a bar over it. */
const FLAG_OVERHANG = 0.1;
/** What a glyph and its flag may read as together: a letter or digit (not `=` or an arrow, which bars also draw). */
const FLAGGED = /^[A-Za-z0-9]$/;

export type ScoreGroups = (groups: readonly Stroke[][]) => Promise<Classification[]>;

const xOverlap = (a: Box, b: Box): number => {
  const shared = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  return shared / Math.max(Math.min(a.x1 - a.x0, b.x1 - b.x0), 1e-9);
};

/**
 * Whether the later strokes `b` of a glyph stand as a script of the earlier `a`: wholly right of
 * it, a gap apart, smaller (SCRIPT_HEIGHT of its height at most) and raised or lowered
 * (reaching over its top with their middle in its top third, or under its foot with their middle in its bottom third). Geometry joined them for touching; the shape says two
 * symbols (`E^{\pi}` read `E`, `W^{D}` read `W`), so the split needs only to come near the whole's
 * score, not to beat it by MARGIN.
 */
function scriptShaped(a: Box, b: Box): boolean {
  const height = a.y1 - a.y0;
  const middle = (b.y0 + b.y1) / 2;
  return (
    b.x0 >= a.x1 + SCRIPT_GAP * (a.x1 - a.x0) &&
    b.y1 - b.y0 <= SCRIPT_HEIGHT * height &&
    ((b.y0 < a.y0 && middle < a.y0 + height / 3) || (b.y1 > a.y1 && middle > a.y1 - height / 3))
  );
}

/** Whether one group's strokes were drawn right after the other's (consecutive stroke indices). */
const drawnInTurn = (a: StrokeGroup, b: StrokeGroup): boolean =>
  Math.abs(Math.min(...b.strokes) - Math.max(...a.strokes)) === 1 || Math.abs(Math.min(...a.strokes) - Math.max(...b.strokes)) === 1;

function glyphOf(ids: number[], strokes: readonly Stroke[]): StrokeGroup {
  const box = strokesBox(ids.map((i) => strokes[i]));
  return { strokes: ids, kind: 'glyph', componentIds: [], canvasBox: box, box };
}

export async function regroup(groups: readonly StrokeGroup[], strokes: readonly Stroke[], score: ScoreGroups): Promise<StrokeGroup[]> {
  const glyphs = groups.filter((g) => g.kind === 'glyph');
  const ink = (ids: number[]) => ids.map((i) => strokes[i]);
  // `need`: the gain a candidate must reach (MARGIN; a split shaped like a base and its script, less).
  const candidates: Array<{ replaces: StrokeGroup[]; by: number[][]; need: number; flag?: boolean }> = [];
  for (const g of glyphs) {
    const ids = [...g.strokes].sort((a, b) => a - b);
    for (let cut = 1; cut < ids.length; cut++) {
      const [a, b] = [ids.slice(0, cut), ids.slice(cut)];
      const [boxA, boxB] = [strokesBox(ink(a)), strokesBox(ink(b))];
      if (xOverlap(boxA, boxB) < SIDE_BY_SIDE) candidates.push({ replaces: [g], by: [a, b], need: scriptShaped(boxA, boxB) ? 1 / MARGIN : MARGIN });
    }
  }
  const ordered = [...glyphs].sort((a, b) => a.box.x0 - b.box.x0);
  for (let i = 0; i + 1 < ordered.length; i++) {
    const [a, b] = [ordered[i], ordered[i + 1]];
    if (drawnInTurn(a, b) && xOverlap(a.box, b.box) >= STACKED)
      candidates.push({ replaces: [a, b], by: [[...a.strokes, ...b.strokes].sort((x, y) => x - y)], need: MARGIN });
  }
  for (const [glyph, rule] of flagTops(glyphs, groups))
    candidates.push({ replaces: [glyph, rule], by: [[...glyph.strokes, ...rule.strokes].sort((x, y) => x - y)], need: MARGIN, flag: true });
  if (!candidates.length) return [...groups];
  const sets = [...glyphs.map((g) => g.strokes), ...candidates.flatMap((c) => c.by)];
  const scores = await score(sets.map(ink));
  const now = new Map(glyphs.map((g, i) => [g, scores[i].confidence]));
  let at = glyphs.length;
  const taken = new Set<StrokeGroup>();
  const added: StrokeGroup[] = [];
  const wins = candidates
    .map((c) => {
      if (c.flag) {
        const joined = scores[at++];
        // The bar has no score of its own: the glyph with its flag against the glyph alone.
        return { c, gain: FLAGGED.test(joined.latex) && joined.confidence > now.get(c.replaces[0])! ? Infinity : 0 };
      }
      const mine = c.by.map(() => scores[at++].confidence);
      const before = c.replaces.reduce((p, g) => p * now.get(g)!, 1);
      // Compared per symbol (geometric mean), so one symbol and two are judged alike.
      const gain = mine.reduce((p, v) => p * v, 1) ** (1 / c.by.length) / before ** (1 / c.replaces.length);
      return { c, gain };
    })
    .filter((w) => w.gain > w.c.need)
    .sort((x, y) => y.gain - x.gain);
  for (const { c } of wins) {
    if (c.replaces.some((g) => taken.has(g))) continue;
    c.replaces.forEach((g) => taken.add(g));
    added.push(...c.by.map((ids) => glyphOf(ids, strokes)));
  }
  return [...groups.filter((g) => !taken.has(g)), ...added].sort((a, b) => a.box.x0 - b.box.x0 || a.box.y0 - b.box.y0);
}

/** Each rule drawn right before or after a glyph (stroke order), lying across its top and with no ink over it, with that glyph. */
function flagTops(glyphs: readonly StrokeGroup[], groups: readonly StrokeGroup[]): Array<[StrokeGroup, StrokeGroup]> {
  const pairs: Array<[StrokeGroup, StrokeGroup]> = [];
  for (const rule of groups.filter((g) => g.kind === 'rule')) {
    for (const glyph of glyphs) {
      if (!drawnInTurn(glyph, rule)) continue;
      const [g, r] = [glyph.box, rule.box];
      const [height, width] = [g.y1 - g.y0, g.x1 - g.x0];
      const middle = ((r.y0 + r.y1) / 2 - g.y0) / Math.max(height, 1e-9);
      const across = xOverlap(g, r) >= FLAG_SHARED && middle >= -FLAG_ABOVE_TOP && middle <= FLAG_BELOW_TOP;
      const overhangs = r.x0 < g.x0 - FLAG_OVERHANG * width && r.x1 > g.x1 + FLAG_OVERHANG * width;
      // A glyph just over the bar too (a numerator) makes it a fraction bar, whatever stands close under it.
      const over = groups.some(
        (o) =>
          o.kind === 'glyph' &&
          o !== glyph &&
          o.box.y1 <= r.y0 &&
          o.box.y1 >= r.y0 - height &&
          (o.box.x0 + o.box.x1) / 2 > r.x0 &&
          (o.box.x0 + o.box.x1) / 2 < r.x1,
      );
      if (across && !overhangs && !over) pairs.push([glyph, rule]);
    }
  }
  return pairs;
}
