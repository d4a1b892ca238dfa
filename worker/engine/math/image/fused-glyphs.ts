import { FUNCTION_NAMES } from '../layout/words.js';
import type { Box } from '../types.js';
import type { Classification, SymbolClassifier } from './classifier.js';
import type { ComponentMap } from './components.js';
import { cropOf, cutColumns, cutRows, pieceOf, SLIVERS, withDots, type ClassifiedGroup, type Piece } from './split.js';
import { DOT_TOKENS, styledLetter } from './vocabulary.js';

/** A blob narrower than this (em) is one glyph: two letters side by side are wider than an n. */
const MIN_WIDTH_EM = 0.7;
/** A blob at least this wide (em) may be three glyphs: two cuts are tried too. */
const TRIPLE_MIN_EM = 1;
/** Every piece of a cut is at least this wide (em). */
const MIN_PIECE_EM = 0.12;
/** A blob this many times wider than tall is a bar or an arrow, not letters. */
const FLAT_RATIO = 2.5;
/** Cut columns tried per blob, at least CUT_SPACING pixels apart. */
const CUTS = 4;
const CUT_SPACING = 2;
/**
 * Two glyphs that touch meet in a serif or a tail: the column through the joint may cross the
 * letter's other stroke too (`ar`'s foot serif under the r's arm), so two ink runs are allowed.
 */
const CUT_MAX_RUNS = 2;
/** Rows tried for a cut between stacked glyphs. */
const ROW_CUTS = 2;
/** A read at least this sure is split only into the letters of a known word. */
const SURE = 0.7;
/** Without a word, each piece reads at least this surely… */
const PIECE_SURE = 0.4;
/** …and the pieces' probabilities, times this per extra symbol, beat the whole's. */
const PER_SYMBOL = 0.5;
/** A word's letters read, on geometric mean, at least this surely; a runner-up below PLAUSIBLE is another shape. */
const WORD_MEAN_SURE = 0.3;
const PLAUSIBLE = 0.05;

/**
 * Reads a cut blob may not be, nor be split from: shapes with gaps or strokes a column cut would pass
 * for two glyphs. A blob read as one of them less surely than UNCUT_SURE is no such shape (a `c` and its
 * touching exponent read `\rightleftharpoons` at 0.06) and is tried like any other.
 */
const UNCUT_SURE = 0.25;
const UNCUT = new Set([
  ...['\\sum', '\\prod', '\\int', '\\oint', '\\bigcup', '\\bigcap', '\\sqrt'],
  ...['\\rightarrow', '\\leftarrow', '\\leftrightarrow', '\\Rightarrow', '\\Leftrightarrow', '\\mapsto', '\\rightleftharpoons'],
  ...['=', '\\equiv', '\\approx', '\\sim', '+', '\\pm', '\\mp', '\\times', '\\div'],
  ...['(', ')', '[', ']', '\\{', '\\}', '\\langle', '\\rangle', DOT_TOKENS.period],
]);

/**
 * Upright words maths prints: function names, operator names, chemical element symbols. Letters a
 * blob's pieces spell together with the letters beside it are taken over a sure single read.
 */
const WORDS: readonly string[] = [
  ...FUNCTION_NAMES,
  ...'Var Cov rank tr diag sgn mod lcm erf Re Im softmax argmax argmin'.split(' '),
  ...'He Li Be Ne Na Mg Al Si Cl Ar Ca Sc Ti Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr Rb Sr Zr Nb Mo Ag Cd In Sn Sb Te Xe Cs Ba Pt Au Hg Pb Bi Rn Ra'.split(' '),
];

const letterOf = (latex: string): string | null => styledLetter(latex)?.letter ?? (/^[a-zA-Z]$/u.test(latex) ? latex : null);
const isUpright = (latex: string): boolean => styledLetter(latex)?.style === 'upright';

/** The letters beside a blob on its line, nearest last (left) and first (right), and whether one is upright. */
interface Near {
  left: string;
  right: string;
  upright: boolean;
}

interface Trial {
  item: ClassifiedGroup;
  near: Near;
  pieces: Piece[];
  /** Each way to cut the blob, as indices into `pieces`, left to right (or top to bottom: `stacked`). */
  segmentations: Segmentation[];
}

interface Segmentation {
  indices: number[];
  stacked: boolean;
}

/**
 * Glyphs the raster has fused that the classifier reads confidently as one wrong symbol: at 150 dpi
 * `\mathrm{Var}`'s `ar` is an `m`, `\cos`'s `os` and `\exp`'s `ex` an `\infty`, `rank`'s `an` a
 * `\vec`. split.ts only tries blobs the classifier is unsure of, at one-run columns. Here every blob
 * wide enough for two glyphs that is unsure, or that stands beside letters which with it could spell
 * a known word, is cut at its emptiest columns (one cut, and two for a blob wide enough for three);
 * the pieces of all blobs are classified in one batch. A cut is kept when its pieces spell such a
 * word with the neighbouring letters (a runner-up letter may stand in, as the parser's
 * name-lookalikes.ts does), or, for an unsure blob, when every piece is sure and their probabilities
 * with a per-symbol penalty beat the whole's: a small beam over segmentations. An unsure blob is
 * also cut at its emptiest rows (split.ts cutRows), for a glyph fused with one stacked on it: the
 * limit `n` touching its `\prod` once the image is enlarged (the confidence model's second read).
 */
export async function splitFused(
  map: ComponentMap,
  items: ClassifiedGroup[],
  classifier: SymbolClassifier,
  emPx: number | undefined,
): Promise<ClassifiedGroup[]> {
  if (emPx === undefined) return items;
  const trials = items.flatMap((item) => trialOf(map, item, items, emPx) ?? []);
  if (!trials.length) return items;
  const labels = await classifier.classify(trials.flatMap(({ pieces }) => pieces.map((piece) => cropOf(map, piece, emPx))));
  const replaced = new Map<ClassifiedGroup, ClassifiedGroup[]>();
  const absorbed = new Set<ClassifiedGroup>();
  let at = 0;
  for (const { item, near, pieces, segmentations } of trials) {
    const reads = labels.slice(at, at + pieces.length);
    at += pieces.length;
    const best = bestSegmentation(item.label!, near, reads, segmentations);
    if (!best) continue;
    const chosen = best.indices.map((k) => pieces[k]);
    if (chosen.some((piece) => piece.dots.some((dot) => absorbed.has(dot)))) continue;
    replaced.set(
      item,
      chosen.map((piece, k) => ({ group: withDots(piece), label: best.labels[k] })),
    );
    for (const piece of chosen) for (const dot of piece.dots) absorbed.add(dot);
  }
  return items.flatMap((item) => (absorbed.has(item) ? [] : (replaced.get(item) ?? [item])));
}

/** The cuts worth classifying for one blob, or null when it is no candidate. */
function trialOf(map: ComponentMap, item: ClassifiedGroup, items: ClassifiedGroup[], emPx: number): Trial | null {
  if (!item.label || (UNCUT.has(item.label.latex) && item.label.confidence >= UNCUT_SURE)) return null;
  const { box } = item.group;
  const width = box.x1 - box.x0;
  if (width < MIN_WIDTH_EM * emPx || width >= FLAT_RATIO * (box.y1 - box.y0)) return null;
  const near = neighbourLetters(item, items);
  const letter = letterOf(item.label.latex);
  if (item.label.confidence >= SURE && ((letter !== null && spells(near, [letter])) || !wordAround(near))) return null;

  const minPiece = MIN_PIECE_EM * emPx;
  const columns = cutColumns(map, item.group, 3 * CUTS, CUT_MAX_RUNS)
    .reduce<number[]>((kept, c) => (kept.length < CUTS && kept.every((k) => Math.abs(k - c) >= CUT_SPACING) ? [...kept, c] : kept), [])
    .sort((a, b) => a - b);
  const cuts = columns.map((c) => [c]);
  if (width >= TRIPLE_MIN_EM * emPx) {
    columns.forEach((a, i) => columns.slice(i + 1).forEach((b) => b - a >= minPiece && cuts.push([a, b])));
  }
  // Pieces are shared between cuts (a single cut's left piece is a double cut's too): each is classified once.
  const dots = items.filter((other) => other.label?.latex === DOT_TOKENS.period);
  const pieces: Piece[] = [];
  const byRegion = new Map<string, number>();
  const pieceIndex = (region: Box): number => {
    const key = `${region.x0},${region.x1},${region.y0},${region.y1}`;
    if (!byRegion.has(key)) {
      const piece = pieceOf(map, item.group, region, dots);
      const size = piece && Math.min(piece.group.box.x1 - piece.group.box.x0, piece.group.box.y1 - piece.group.box.y0);
      byRegion.set(key, piece && size! >= minPiece ? pieces.push(piece) - 1 : -1);
    }
    return byRegion.get(key)!;
  };
  const segmentations: Segmentation[] = cuts.map((cut) => {
    const edges = [box.x0, ...cut, box.x1];
    return { indices: edges.slice(1).map((x1, k) => pieceIndex({ ...box, x0: edges[k], x1 })), stacked: false };
  });
  // A glyph fused with what stands above or below it (an enlarged read fills the pixel between a
  // big operator and its limit): cut at the emptiest rows, for an unsure blob only.
  if (item.label.confidence < SURE) {
    for (const y of cutRows(map, item.group, ROW_CUTS, CUT_MAX_RUNS))
      segmentations.push({ indices: [pieceIndex({ ...box, y1: y }), pieceIndex({ ...box, y0: y })], stacked: true });
  }
  const whole = segmentations.filter(({ indices }) => indices.every((k) => k >= 0));
  return whole.length ? { item, near, pieces, segmentations: whole } : null;
}

/** The best accepted segmentation with its pieces' labels, or null to keep the blob whole. */
function bestSegmentation(
  whole: Classification,
  near: Near,
  reads: Classification[],
  segmentations: Segmentation[],
): { indices: number[]; labels: Classification[] } | null {
  let best: { score: number; indices: number[]; labels: Classification[] } | null = null;
  for (const { indices, stacked } of segmentations) {
    const labels = indices.map((k) => reads[k]);
    if (labels.some((label) => SLIVERS.has(label.latex) || (!stacked && UNCUT.has(label.latex)))) continue;
    const worded = stacked ? null : wordReading(near, labels);
    const logP = labels.reduce((sum, label) => sum + Math.log(label.confidence), 0) + (labels.length - 1) * Math.log(PER_SYMBOL);
    const sure = whole.confidence < SURE && labels.every((label) => label.confidence >= PIECE_SURE) && logP > Math.log(whole.confidence);
    if (!worded && !sure) continue;
    // A word outranks any segmentation without one.
    const score = worded ? 1 + worded.reduce((sum, label) => sum + Math.log(label.confidence), 0) : logP;
    if (!best || score > best.score) best = { score, indices, labels: worded ?? labels };
  }
  return best;
}

/**
 * Letters whose capital is their small letter enlarged: beside a blob, the classifier's top read of
 * a neighbour may be either (the `s` after a `co` fused into `\infty`, read `S`), which the layout
 * then reads by the name (name-lookalikes.ts). The blob's own pieces are matched exactly.
 */
const CASE_TWINS = new Set([...'cosvwxz']);
const neighbourIs = (seen: string, letter: string): boolean =>
  seen === letter || (CASE_TWINS.has(letter.toLowerCase()) && seen.toLowerCase() === letter.toLowerCase());
const looseStartsWith = (text: string, prefix: string): boolean => prefix.length <= text.length && [...prefix].every((c, k) => neighbourIs(text[k]!, c));
const looseEndsWith = (text: string, suffix: string): boolean =>
  suffix.length <= text.length && looseStartsWith(text.slice(text.length - suffix.length), suffix);

/** True when `word` occurs in the letters left + middle + right over all of middle. */
function covers(near: Near, middle: string[], word: string): boolean {
  const inner = middle.join('');
  const from = near.left.length;
  const to = from + inner.length;
  for (let start = Math.max(0, to - word.length); start <= from && start + word.length <= to + near.right.length; start++) {
    const before = word.slice(0, from - start);
    const after = word.slice(to - start);
    if (word.slice(from - start, to - start) === inner && looseEndsWith(near.left, before) && looseStartsWith(near.right, after)) return true;
  }
  return false;
}

const spells = (near: Near, middle: string[]): boolean => WORDS.some((word) => covers(near, middle, word));

/** True when a known word could take at least one neighbouring letter and two or three letters of the blob. */
function wordAround(near: Near): boolean {
  return WORDS.some((word) => {
    for (let i = 0; i <= word.length && looseEndsWith(near.left, word.slice(0, i)); i++) {
      for (let j = i + 2; j <= Math.min(word.length, i + 3); j++) {
        if (i + word.length - j >= 1 && looseStartsWith(near.right, word.slice(j))) return true;
      }
    }
    return false;
  });
}

/**
 * The pieces' reads as letters of a known upright word with the letters beside the blob, or null.
 * Each letter piece takes its top label or a letter the classifier offers as runner-up; a piece that
 * is no letter may only end the run (a subscript digit fused to the last letter), and the neighbours
 * on that side are then not part of the word.
 */
function wordReading(near: Near, labels: Classification[]): Classification[] | null {
  const options = labels.map((label) => [label, ...label.alternatives].filter((o) => o.confidence >= PLAUSIBLE && letterOf(o.latex) !== null));
  const first = options.findIndex((o) => o.length > 0);
  const last = options.length - 1 - [...options].reverse().findIndex((o) => o.length > 0);
  if (first < 0 || options.slice(first, last + 1).some((o) => !o.length)) return null;
  const context: Near = { left: first === 0 ? near.left : '', right: last === labels.length - 1 ? near.right : '', upright: near.upright };
  type Option = { latex: string; confidence: number };
  let best: { logP: number; choice: Option[] } | null = null;
  const choose = (k: number, choice: Option[]): void => {
    if (k <= last) {
      for (const option of options[k]) choose(k + 1, [...choice, option]);
      return;
    }
    if (!context.upright && !choice.some((o) => isUpright(o.latex))) return;
    if (
      !spells(
        context,
        choice.map((o) => letterOf(o.latex)!),
      )
    )
      return;
    const logP = choice.reduce((sum, o) => sum + Math.log(o.confidence), 0);
    if (logP >= choice.length * Math.log(WORD_MEAN_SURE) && (!best || logP > best.logP)) best = { logP, choice };
  };
  choose(first, []);
  if (!best) return null;
  const { choice } = best as { choice: Option[] };
  return labels.map((label, k) => {
    const picked = k >= first && k <= last ? choice[k - first] : label;
    if (picked.latex === label.latex) return label;
    const others = [label, ...label.alternatives].filter((o) => o.latex !== picked.latex);
    return {
      latex: picked.latex,
      confidence: picked.confidence,
      alternatives: others.map(({ latex, confidence }) => ({ latex, confidence })).slice(0, label.alternatives.length),
    };
  });
}

/** The letters beside `item` on its line, up to the first non-letter or a gap wider than half its height. */
function neighbourLetters(item: ClassifiedGroup, items: ClassifiedGroup[]): Near {
  const self = item.group.box;
  const height = self.y1 - self.y0;
  const line = items.filter(({ group, label }) => {
    if (group === item.group || !label || label.latex === DOT_TOKENS.period) return false;
    return Math.min(group.box.y1, self.y1) - Math.max(group.box.y0, self.y0) >= 0.5 * Math.min(height, group.box.y1 - group.box.y0);
  });
  let upright = false;
  const walk = (step: 1 | -1): string => {
    let letters = '';
    for (let edge: Box = self; ;) {
      const ahead = line.filter(({ group }) => (step > 0 ? group.box.x0 >= edge.x1 - 1 : group.box.x1 <= edge.x0 + 1));
      const next = ahead.sort((a, b) => (step > 0 ? a.group.box.x0 - b.group.box.x0 : b.group.box.x1 - a.group.box.x1))[0];
      const gap = next && (step > 0 ? next.group.box.x0 - edge.x1 : edge.x0 - next.group.box.x1);
      const letter = next && letterOf(next.label!.latex);
      if (!next || gap > 0.5 * height || !letter) return letters;
      upright ||= isUpright(next.label!.latex);
      letters = step > 0 ? letters + letter : letter + letters;
      edge = next.group.box;
    }
  };
  const left = walk(-1);
  const right = walk(1);
  return { left, right, upright };
}
