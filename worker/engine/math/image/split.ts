import type { Box } from '../types.js';
import type { Classification, SymbolClassifier } from './classifier.js';
import type { ComponentMap } from './components.js';
import type { SymbolGroup } from './merge.js';
import { normaliseCrop, type NormalisedCrop } from './normalise.js';
import { strokeWidth } from './shape.js';
import { DOT_TOKENS } from './vocabulary.js';

/** A classified glyph below this confidence may be two glyphs whose ink touches. */
const SPLIT_BELOW = 0.7;
/**
 * Both halves of an accepted split must be recognised at least this surely. 0.6 with the 227-class
 * classifier; with the alphabets' 99 classes beside them a `\vec` cut off a bar it touches reads 0.56.
 */
const PIECE_SURE = 0.55;
/** Cut columns tried per glyph: the emptiest local minima of its column profile. */
const CUTS_TRIED = 3;
/** Cuts stay this far (fraction of the width) from either edge. */
const EDGE_MARGIN = 0.2;
/**
 * …unless what the cut leaves at the edge is a stroke as tall as the blob (ink in this share of its
 * rows in every column): a `|` touching the glyph beside it is 2 px wide at 150 dpi, inside the margin.
 */
const EDGE_STROKE_FILL = 0.9;
/** Rows this close (share of the height) to a group's top or bottom are no place to cut it. */
const ROW_EDGE_MARGIN = 0.15;
/** A blob narrower than this many strokes is not two glyphs. */
const PAIR_MIN_STROKES = 3;
/** A blob at least this many times wider than tall is not cut into columns. */
const FLAT_RATIO = 2.5;
/** The upper of a cut piece's stacked parts is an accent at least this many times wider than tall. */
const ACCENT_FLAT = 1.5;
/** A bar row is inked over this fraction of the blob's width in one run. */
const BAR_FILL = 0.85;
/** A bar is at most this fraction of the blob's height thick. */
const BAR_MAX_THICKNESS = 0.25;
/**
 * What a cut through one glyph tends to leave: a stroke end read as punctuation (the stem of an n
 * as ':', the tail of an s as ';'). Touching glyphs are letters, digits, brackets and operators.
 */
export const SLIVERS = new Set([':', ';', ',', '.', '!', "'", '\\prime']);

export interface ClassifiedGroup {
  group: SymbolGroup;
  /** Undefined for a RULE. */
  label?: Classification;
}

export interface Piece {
  group: SymbolGroup;
  /** Dot groups (an i's tittle) that sit on this piece and go with it. */
  dots: ClassifiedGroup[];
}

const union = (a: Box, b: Box): Box => ({ x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) });

/** One way to take a blob apart: glyph pieces to classify, and bars that are RULEs as they are. */
interface Cut {
  pieces: Piece[];
  rules: SymbolGroup[];
}

/**
 * Glyphs that touch in the raster (`dx`, the `in` of `\sin`, the `li` of `\lim`, a numerator
 * sitting on its fraction bar, at 150 dpi) come out of the component step as one blob the
 * classifier is unsure of. Such a blob is cut at the emptiest columns of its ink, or a full-width
 * bar is taken off it, the pieces are classified, and the best cut is kept when every piece is
 * recognised more surely than the whole. A loose dot right above a piece (the tittle the merge
 * step could not join to a stem it did not see) is classified with it.
 */
export async function splitTouching(
  map: ComponentMap,
  items: ClassifiedGroup[],
  classifier: SymbolClassifier,
  emPx: number | undefined,
): Promise<ClassifiedGroup[]> {
  const dots = items.filter((item) => item.label?.latex === DOT_TOKENS.period);
  const trials: Array<{ item: ClassifiedGroup; cuts: Cut[] }> = [];
  let stroke: number | undefined;
  for (const item of items) {
    if (!item.label || item.label.confidence >= SPLIT_BELOW) continue;
    const { box } = item.group;
    // Two glyphs side by side hold two strokes and more; a blob narrower is one glyph, a stem cut in two
    // (Times' script 1, read unsurely, had come apart as `]` and `\lfloor`).
    if (box.x1 - box.x0 < PAIR_MIN_STROKES * (stroke ??= strokeWidth(map))) continue;
    // Two glyphs side by side are never this flat; a small arrow (`\vec`) the classifier is unsure of is.
    const flat = box.x1 - box.x0 >= FLAT_RATIO * (box.y1 - box.y0);
    const cuts: Cut[] = (flat ? [] : cutColumns(map, item.group)).flatMap((column) => {
      const left = pieceOf(map, item.group, { ...box, x1: column }, dots);
      const right = pieceOf(map, item.group, { ...box, x0: column }, dots);
      // A cut that leaves a bar (the shaft of a long arrow) cut a stroke, not a joint between glyphs.
      const bar = [left, right].some((piece) => piece && isBar(piece.group.box));
      if (!left || !right || bar) return [];
      // A piece the cut leaves in two parts one above the other (an accent over its letter) is also tried as those parts.
      const apart = [left, right].flatMap((piece) => stackedParts(map, piece, dots) ?? [piece]);
      return [{ pieces: [left, right], rules: [] }, ...(apart.length > 2 ? [{ pieces: apart, rules: [] }] : [])];
    });
    const bar = barCut(map, item.group, dots);
    if (bar) cuts.push(bar);
    if (cuts.length) trials.push({ item, cuts });
  }
  if (!trials.length) return items;

  const crops: NormalisedCrop[] = trials.flatMap(({ cuts }) => cuts.flatMap((cut) => cut.pieces.map((piece) => cropOf(map, piece, emPx))));
  const labels = await classifier.classify(crops);
  const replaced = new Map<ClassifiedGroup, ClassifiedGroup[]>();
  const absorbed = new Set<ClassifiedGroup>();
  let at = 0;
  for (const { item, cuts } of trials) {
    let best: { score: number; cut: Cut; labels: Classification[] } | undefined;
    for (const cut of cuts) {
      const pieceLabels = labels.slice(at, at + cut.pieces.length);
      at += cut.pieces.length;
      if (pieceLabels.some((label) => SLIVERS.has(label.latex))) continue;
      const score = Math.min(...pieceLabels.map((label) => label.confidence));
      const dotsReused = cut.pieces.some((piece) => piece.dots.some((dot) => absorbed.has(dot)));
      if (score >= PIECE_SURE && score > item.label!.confidence && !dotsReused && (!best || score > best.score)) best = { score, cut, labels: pieceLabels };
    }
    if (!best) continue;
    const { cut, labels: chosen } = best;
    replaced.set(item, [...cut.pieces.map((piece, k) => ({ group: withDots(piece), label: chosen[k] })), ...cut.rules.map((group) => ({ group }))]);
    for (const piece of cut.pieces) for (const dot of piece.dots) absorbed.add(dot);
  }
  return items.flatMap((item) => (absorbed.has(item) ? [] : (replaced.get(item) ?? [item])));
}

const isBar = (box: Box): boolean => box.x1 - box.x0 >= FLAT_RATIO * (box.y1 - box.y0);

/**
 * A band of rows inked (nearly) across the whole blob, with glyph ink above and/or below that is
 * narrower than the band: a fraction bar or a minus the raster has fused with a neighbour.
 */
function barCut(map: ComponentMap, group: SymbolGroup, dots: ClassifiedGroup[]): Cut | null {
  const ids = new Set(group.parts.map((part) => part.id));
  const { x0, x1, y0, y1 } = group.box;
  const full = (y: number): boolean => {
    let run = 0;
    let best = 0;
    for (let x = x0; x < x1; x++) {
      run = ids.has(map.labels[y * map.width + x]) ? run + 1 : 0;
      best = Math.max(best, run);
    }
    return best >= BAR_FILL * (x1 - x0);
  };
  let top = y0;
  while (top < y1 && !full(top)) top++;
  let bottom = top;
  while (bottom < y1 && full(bottom)) bottom++;
  if (top === y1 || bottom - top > BAR_MAX_THICKNESS * (y1 - y0)) return null;
  const pieces = [pieceOf(map, group, { ...group.box, y1: top }, dots), pieceOf(map, group, { ...group.box, y0: bottom }, dots)].filter(
    (piece): piece is Piece => piece !== null,
  );
  const narrower = pieces.every((piece) => piece.group.box.x1 - piece.group.box.x0 < BAR_FILL * (x1 - x0));
  if (!pieces.length || !narrower) return null;
  return { pieces, rules: [{ parts: group.parts, box: { x0, y0: top, x1, y1: bottom }, rule: true }] };
}

/**
 * The `tried` emptiest local minima of the group's column ink counts, away from its edges, where
 * the ink is one run: two glyphs touch at one joint, while a column through a loop (an o) crosses
 * two. `maxRuns` 2 also takes a joint under another stroke (fused-glyphs.ts).
 */
export function cutColumns(map: ComponentMap, group: SymbolGroup, tried = CUTS_TRIED, maxRuns = 1): number[] {
  const { x0, x1 } = group.box;
  const { counts, runs } = columnProfile(map, group);
  const margin = Math.max(2, Math.ceil(EDGE_MARGIN * (x1 - x0)));
  const thinner = (i: number) => (i < counts.length && counts[i] < counts[i - 1] ? i : i - 1);
  const height = group.box.y1 - group.box.y0;
  // Every column of a piece but the one next to the cut (where the glyphs meet) is inked nearly full height.
  const stroke = (columns: Int32Array): boolean => columns.every((count) => count >= EDGE_STROKE_FILL * height);
  let [first, last] = [margin, counts.length - margin];
  while (first > 2 && stroke(counts.subarray(0, first - 2))) first--;
  while (last < counts.length - 2 && stroke(counts.subarray(last + 2))) last++;
  const minima: number[] = [];
  for (let i = first; i <= last; i++) {
    const left = counts[i - 1];
    const right = i < counts.length ? counts[i] : Infinity;
    // Column x0 + i is the first column of the right half; a cut at a valley edge is tried once.
    if (left <= right && (i === first || counts[i - 2] >= left) && runs[thinner(i)] <= maxRuns) minima.push(i);
  }
  return minima
    .sort((a, b) => Math.min(counts[a - 1], counts[a] ?? Infinity) - Math.min(counts[b - 1], counts[b] ?? Infinity))
    .slice(0, tried)
    .map((i) => x0 + i);
}

/**
 * The `tried` emptiest rows of a group, away from its top and bottom (ROW_EDGE_MARGIN of its height),
 * where its ink is at most `maxRuns` runs: where a glyph touches one stacked above or below it.
 */
export function cutRows(map: ComponentMap, group: SymbolGroup, tried: number, maxRuns: number): number[] {
  const ids = new Set(group.parts.map((part) => part.id));
  const { x0, x1, y0, y1 } = group.box;
  const rows: { y: number; count: number }[] = [];
  const margin = Math.max(2, Math.ceil(ROW_EDGE_MARGIN * (y1 - y0)));
  for (let y = y0 + margin; y < y1 - margin; y++) {
    let [count, runs, inside] = [0, 0, false];
    for (let x = x0; x < x1; x++) {
      const ink = ids.has(map.labels[y * map.width + x]);
      if (ink) count++;
      if (ink && !inside) runs++;
      inside = ink;
    }
    if (runs <= maxRuns) rows.push({ y, count });
  }
  return rows
    .sort((a, b) => a.count - b.count)
    .slice(0, tried)
    .map(({ y }) => y);
}

/** Per column of the group's box: ink pixels, and how many separate vertical runs they form. */
function columnProfile(map: ComponentMap, group: SymbolGroup): { counts: Int32Array; runs: Int32Array } {
  const ids = new Set(group.parts.map((part) => part.id));
  const { x0, x1, y0, y1 } = group.box;
  const counts = new Int32Array(x1 - x0);
  const runs = new Int32Array(x1 - x0);
  for (let x = x0; x < x1; x++) {
    let inside = false;
    for (let y = y0; y < y1; y++) {
      const ink = ids.has(map.labels[y * map.width + x]);
      if (ink) counts[x - x0]++;
      if (ink && !inside) runs[x - x0]++;
      inside = ink;
    }
  }
  return { counts, runs };
}

/** The group's ink inside `region` as a group with a tight box, with the dots resting on it. */
export function pieceOf(map: ComponentMap, group: SymbolGroup, region: Box, dots: ClassifiedGroup[]): Piece | null {
  const ids = new Set(group.parts.map((part) => part.id));
  let box: Box | null = null;
  for (let y = region.y0; y < region.y1; y++) {
    for (let x = region.x0; x < region.x1; x++) {
      if (!ids.has(map.labels[y * map.width + x])) continue;
      box = box ? union(box, { x0: x, y0: y, x1: x + 1, y1: y + 1 }) : { x0: x, y0: y, x1: x + 1, y1: y + 1 };
    }
  }
  if (!box || box.x1 - box.x0 < 2) return null;
  const inkBox = box;
  const height = inkBox.y1 - inkBox.y0;
  const resting = dots.filter(({ group: dot }) => {
    const centre = (dot.box.x0 + dot.box.x1) / 2;
    const gap = inkBox.y0 - dot.box.y1;
    return centre >= inkBox.x0 && centre <= inkBox.x1 && gap >= 0 && gap <= 0.5 * height;
  });
  return { group: { parts: group.parts, box: inkBox, rule: false }, dots: resting.slice(0, 1) };
}

/**
 * The two parts of a piece whose ink leaves a row empty across its box: a `\vec` whose arrow touched
 * the `|` beside its letter comes out of the cut between them as arrow and letter, apart in the piece
 * as they would be in a raster that had not fused them. Null when no row inside the piece is empty.
 */
function stackedParts(map: ComponentMap, piece: Piece, dots: ClassifiedGroup[]): [Piece, Piece] | null {
  const ids = new Set(piece.group.parts.map((part) => part.id));
  const { x0, x1, y0, y1 } = piece.group.box;
  for (let y = y0 + 1; y < y1 - 1; y++) {
    let empty = true;
    for (let x = x0; x < x1 && empty; x++) empty = !ids.has(map.labels[y * map.width + x]);
    if (!empty) continue;
    const top = pieceOf(map, piece.group, { ...piece.group.box, y1: y }, dots);
    const bottom = pieceOf(map, piece.group, { ...piece.group.box, y0: y + 1 }, dots);
    // The upper part is an accent, flat; a limit cut off with part of its big operator is no such pair.
    const flat = top && top.group.box.x1 - top.group.box.x0 >= ACCENT_FLAT * (top.group.box.y1 - top.group.box.y0);
    return top && bottom && flat ? [top, bottom] : null;
  }
  return null;
}

export function withDots(piece: Piece): SymbolGroup {
  const parts = [...piece.group.parts, ...piece.dots.flatMap((dot) => dot.group.parts)];
  const box = piece.dots.reduce((acc, dot) => union(acc, dot.group.box), piece.group.box);
  return { parts, box, rule: false };
}

/**
 * A piece's crop: its box limits the shared component to the piece's columns (normaliseCrop keeps
 * only ink inside the box), and a resting dot widens the box upwards to take the dot in.
 */
export function cropOf(map: ComponentMap, piece: Piece, emPx: number | undefined): NormalisedCrop {
  const group = withDots(piece);
  return normaliseCrop(
    map,
    group.parts.map((part) => part.id),
    group.box,
    emPx,
  );
}
