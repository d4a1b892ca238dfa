import { unionBox } from '../strokes/geometry.js';
import type { Box } from '../types.js';
import type { Classification, SymbolClassifier } from './classifier.js';
import type { ComponentMap } from './components.js';
import type { SymbolGroup } from './merge.js';
import { normaliseCrop } from './normalise.js';
import type { ClassifiedGroup } from './split.js';

/**
 * Symbols a hand draws as two separate pieces, one above the other. Chosen from what the
 * handwriting training crops report (handwriting-symbols-generate.ts, `splitByMerge`: the classes
 * whose real drawings merge.ts leaves in pieces), keeping the two-piece stacked ones: a symbol of
 * three pieces (÷ ≡ %) or of pieces side by side (T, H, arrows) would let a fraction's numerator,
 * bar and denominator or a letter and its script pass for one symbol.
 */
const TWO_PART = new Set(['=', 'i', 'j', ':', ';', '!', '?', '\\geq', '\\leq', '\\pm', '\\mp', '\\approx']);
/** Two pieces are stacked when they overlap horizontally by this fraction of the narrower one. */
const STACKED_OVERLAP = 0.3;
/**
 * Largest vertical gap between the pieces: the bars of a written = or the tittle of an i lie well
 * within half an em of each other, while rows of a `cases` or a matrix are about an em apart. Where
 * the em is not known, the larger piece's size stands for it.
 */
const STACKED_GAP_EM = 0.6;

const w = (b: Box): number => b.x1 - b.x0;
const h = (b: Box): number => b.y1 - b.y0;
const overlapX = (a: Box, b: Box): number => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);

/**
 * Two-piece symbols of handwriting, joined by the classifier's score. A hand leaves the pieces of
 * `=`, `i`, `j`, `:`, `≥`, `≤` apart at distances, slants and lengths that merge.ts's geometric
 * rules, made for type, do not cover (two wavy bars read as `\tilde` each). Here every pair of
 * stacked pieces with nothing between them is classified as one crop, and the pair becomes one
 * symbol when the joined read is a two-piece symbol and likelier per symbol than the parts: its
 * probability above the geometric mean of theirs, the measure a read's confidence_rate is made of.
 * A rule counts as sure (1), so a bar joins a glyph only when the joined read beats the square root
 * of the glyph's; a bar with ink about as near on its far side is a fraction bar, never joined.
 */
export async function joinByScore(
  map: ComponentMap,
  items: ClassifiedGroup[],
  classifier: SymbolClassifier,
  emPx: number | undefined,
): Promise<ClassifiedGroup[]> {
  const pairs = candidatePairs(items, emPx);
  if (!pairs.length) return items;
  const joins = await bestJoins(map, pairs, classifier, emPx, partScore, (label) => TWO_PART.has(label.latex));
  if (!joins.size) return items;
  const used = new Set([...joins.values()].flatMap(({ a, b }) => [a, b]));
  const added = [...joins.values()].map(({ joined }) => joined);
  return [...items.filter((item) => !used.has(item)), ...added].sort((x, y) => x.group.box.x0 - y.group.box.x0 || x.group.box.y0 - y.group.box.y0);
}

/**
 * Of candidate pairs of pieces, those whose joined crop the classifier reads better than the parts:
 * each pair's crop is classified, kept where `accept` takes its read and its confidence beats the
 * geometric mean of the parts' scores, and taken greedily by that gain, each piece once. Keyed by
 * the pair's first piece.
 */
export async function bestJoins(
  map: ComponentMap,
  pairs: Array<[ClassifiedGroup, ClassifiedGroup]>,
  classifier: SymbolClassifier,
  emPx: number | undefined,
  score: (item: ClassifiedGroup) => number,
  accept: (label: Classification) => boolean,
): Promise<Map<ClassifiedGroup, { a: ClassifiedGroup; b: ClassifiedGroup; joined: ClassifiedGroup }>> {
  const groups = pairs.map(([a, b]) => joinedGroup(a.group, b.group));
  const labels = await classifier.classify(
    groups.map((group) =>
      normaliseCrop(
        map,
        group.parts.map((part) => part.id),
        group.box,
        emPx,
      ),
    ),
  );
  const better = pairs
    .map(([a, b], k) => ({ a, b, group: groups[k], label: labels[k], gain: labels[k].confidence - Math.sqrt(score(a) * score(b)) }))
    .filter((pair) => pair.gain > 0 && accept(pair.label))
    .sort((x, y) => y.gain - x.gain);
  const used = new Set<ClassifiedGroup>();
  const joins = new Map<ClassifiedGroup, { a: ClassifiedGroup; b: ClassifiedGroup; joined: ClassifiedGroup }>();
  for (const { a, b, group, label } of better) {
    if (used.has(a) || used.has(b)) continue;
    used.add(a).add(b);
    joins.set(a, { a, b, joined: { group, label } });
  }
  return joins;
}

/** A rule (unclassified) counts as sure. */
const partScore = (item: ClassifiedGroup): number => item.label?.confidence ?? 1;

function joinedGroup(a: SymbolGroup, b: SymbolGroup): SymbolGroup {
  return { parts: [...a.parts, ...b.parts], box: unionBox(a.box, b.box), rule: false };
}

function candidatePairs(items: ClassifiedGroup[], emPx: number | undefined): Array<[ClassifiedGroup, ClassifiedGroup]> {
  const pairs: Array<[ClassifiedGroup, ClassifiedGroup]> = [];
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const [a, b] = [items[i], items[j]];
      if (!a.label && !b.label) continue;
      if (!stacked(a.group.box, b.group.box, emPx) || somethingBetween(a, b, items)) continue;
      if ((isBar(a) && barBetween(a, b, items)) || (isBar(b) && barBetween(b, a, items))) continue;
      pairs.push([a, b]);
    }
  }
  return pairs;
}

function stacked(a: Box, b: Box, emPx: number | undefined): boolean {
  const gapY = Math.max(a.y0, b.y0) - Math.min(a.y1, b.y1);
  const em = emPx ?? Math.max(w(a), h(a), w(b), h(b));
  return overlapX(a, b) >= STACKED_OVERLAP * Math.min(w(a), w(b)) && gapY <= STACKED_GAP_EM * em;
}

/** Ink of a third piece in the gap between two stacked pieces (a fraction's bar between its numerator and denominator). */
function somethingBetween(a: ClassifiedGroup, b: ClassifiedGroup, items: ClassifiedGroup[]): boolean {
  const [upper, lower] = a.group.box.y0 <= b.group.box.y0 ? [a.group.box, b.group.box] : [b.group.box, a.group.box];
  const gap = { x0: Math.max(upper.x0, lower.x0), x1: Math.min(upper.x1, lower.x1), y0: upper.y1, y1: lower.y0 };
  if (gap.y1 <= gap.y0 || gap.x1 <= gap.x0) return false;
  return items.some((o) => o !== a && o !== b && o.group.box.x0 < gap.x1 && o.group.box.x1 > gap.x0 && o.group.box.y0 < gap.y1 && o.group.box.y1 > gap.y0);
}

/** A rule, or a glyph at least three times as wide as tall (a hand's wavy fraction bar or minus). */
const isBar = (item: ClassifiedGroup): boolean => !item.label || w(item.group.box) >= 3 * h(item.group.box);

/**
 * A bar with ink on its far side about as close as `glyph` is on its own (within the larger of twice
 * the glyph's gap and half its height, under the bar's span) sits between a numerator and a
 * denominator: it stays a rule. The bar of a ≥ touches its glyph; the next row lies farther off.
 */
function barBetween(bar: ClassifiedGroup, glyph: ClassifiedGroup, items: ClassifiedGroup[]): boolean {
  const [b, g] = [bar.group.box, glyph.group.box];
  const below = g.y0 < b.y0;
  const glyphGap = Math.max(0, below ? b.y0 - g.y1 : g.y0 - b.y1);
  const reach = Math.max(2 * glyphGap, 0.5 * h(g));
  return items.some((other) => {
    if (other === bar || other === glyph) return false;
    const box = other.group.box;
    const centre = (box.x0 + box.x1) / 2;
    if (centre < b.x0 || centre > b.x1) return false;
    const gap = below ? box.y0 - b.y1 : b.y0 - box.y1;
    return gap >= 0 && gap <= reach;
  });
}
