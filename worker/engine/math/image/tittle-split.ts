import type { Box } from '../types.js';
import type { SymbolClassifier } from './classifier.js';
import type { Component, ComponentMap } from './components.js';
import type { SymbolGroup } from './merge.js';
import { cropOf, pieceOf, SLIVERS, withDots, type ClassifiedGroup, type Piece } from './split.js';
import { DOT_TOKENS, styledLetter } from './vocabulary.js';

/** Letters that carry a tittle of their own. */
const DOTTED = new Set(['i', 'j']);
/** The dotted piece of an accepted cut reads i or j at least this surely… */
const DOTTED_SURE = 0.5;
/** …and the other piece is read at least this surely: the off-centre tittle is the evidence, the blob's own reading is not. */
const OTHER_SURE = 0.25;
/** A tittle's larger side is at most this fraction of the blob's height. */
const TITTLE_MAX = 0.35;
/** A tittle this close to the glyph's centre (fraction of its width) is an accent over it (`\dot{m}`), not an i's. */
const CENTRED_WITHIN = 0.2;
/** A loose dot counts as resting on the glyph when it is at most this far above it (fraction of its height). */
const MAX_GAP = 0.6;

const letterOf = (latex: string): string | null => styledLetter(latex)?.letter ?? (/^[a-zA-Z]$/u.test(latex) ? latex : null);
const centreX = (box: Box): number => (box.x0 + box.x1) / 2;

interface Tittle {
  /** The dot as a group of its own, to rest on the piece under it. */
  dot: ClassifiedGroup;
  /** The loose dot item it came from, which the cut then absorbs; undefined when the dot was merged into the glyph. */
  loose?: ClassifiedGroup;
}

/**
 * At 150 dpi an i touches its neighbour (`\sin`'s `in`, `\lim`'s `li`) and the pair is one blob the
 * classifier reads as a single letter (`m`, `h`) with the i's tittle above it, merged into the
 * blob's group or left loose (then read as a `\dot` accent). A letter class has no tittle off its
 * centre, so such a glyph is cut beside the tittle and both pieces are classified; the cut is kept
 * when the dotted piece reads i or j and the other piece reads surely.
 */
export async function splitAtTittles(
  map: ComponentMap,
  items: ClassifiedGroup[],
  classifier: SymbolClassifier,
  emPx: number | undefined,
): Promise<ClassifiedGroup[]> {
  const dots = items.filter((item) => item.label?.latex === DOT_TOKENS.period);
  const trials: Array<{ item: ClassifiedGroup; tittle: Tittle; pieces: Piece[] }> = [];
  for (const item of items) {
    const letter = item.label ? letterOf(item.label.latex) : null;
    if (letter === null || DOTTED.has(letter)) continue;
    const tittle = mergedTittle(item.group) ?? looseTittle(item.group, dots);
    if (!tittle) continue;
    const pieces = cutBeside(map, item.group, tittle);
    if (pieces) trials.push({ item, tittle, pieces });
  }
  if (!trials.length) return items;

  const labels = await classifier.classify(trials.flatMap(({ pieces }) => pieces.map((piece) => cropOf(map, piece, emPx))));
  const replaced = new Map<ClassifiedGroup, ClassifiedGroup[]>();
  const absorbed = new Set<ClassifiedGroup>();
  for (const [k, { item, tittle, pieces }] of trials.entries()) {
    const chosen = labels.slice(2 * k, 2 * k + 2);
    const dotted = pieces.findIndex((piece) => piece.dots.length > 0);
    const dottedLetter = letterOf(chosen[dotted]?.latex ?? '');
    const sure = chosen.every((label, i) => label.confidence >= (i === dotted ? DOTTED_SURE : OTHER_SURE) && !SLIVERS.has(label.latex));
    if (dotted < 0 || dottedLetter === null || !DOTTED.has(dottedLetter) || !sure) continue;
    if (tittle.loose && absorbed.has(tittle.loose)) continue;
    replaced.set(
      item,
      pieces.map((piece, i) => ({ group: withDots(piece), label: chosen[i] })),
    );
    if (tittle.loose) absorbed.add(tittle.loose);
  }
  return items.flatMap((item) => (absorbed.has(item) ? [] : (replaced.get(item) ?? [item])));
}

/** A small part of the group lying wholly above the rest, off the group's centre: the tittle the merge step joined to the blob. */
function mergedTittle(group: SymbolGroup): Tittle | null {
  if (group.parts.length !== 2) return null;
  const [a, b] = [...group.parts].sort((p, q) => p.area - q.area);
  // Above the middle of the blob, not above its top: the l of `li` is taller than the i under the dot.
  const small = Math.max(a.box.x1 - a.box.x0, a.box.y1 - a.box.y0) <= TITTLE_MAX * (b.box.y1 - b.box.y0);
  if (!small || a.box.y1 > (b.box.y0 + b.box.y1) / 2 || !offCentre(a.box, b.box)) return null;
  return { dot: { group: { parts: [a], box: a.box, rule: false } } };
}

/** A loose dot resting over the glyph, off its centre. */
function looseTittle(group: SymbolGroup, dots: ClassifiedGroup[]): Tittle | null {
  const { box } = group;
  const height = box.y1 - box.y0;
  const loose = dots.find(({ group: dot }) => {
    const gap = box.y0 - dot.box.y1;
    return centreX(dot.box) > box.x0 && centreX(dot.box) < box.x1 && gap >= 0 && gap <= MAX_GAP * height && offCentre(dot.box, box);
  });
  return loose ? { dot: loose, loose } : null;
}

const offCentre = (dot: Box, glyph: Box): boolean => Math.abs(centreX(dot) - centreX(glyph)) > CENTRED_WITHIN * (glyph.x1 - glyph.x0);

/** The glyph's ink (tittle left out) cut at the tittle's far edge from the glyph's centre: the i's stem stays under its dot. */
function cutBeside(map: ComponentMap, group: SymbolGroup, tittle: Tittle): Piece[] | null {
  const ink: SymbolGroup = { ...group, parts: group.parts.filter((part: Component) => !tittle.dot.group.parts.includes(part)) };
  const dot = tittle.dot.group.box;
  const column = centreX(dot) < centreX(group.box) ? Math.ceil(dot.x1) : Math.floor(dot.x0);
  const left = pieceOf(map, ink, { ...group.box, x1: column }, [tittle.dot]);
  const right = pieceOf(map, ink, { ...group.box, x0: column }, [tittle.dot]);
  return left && right ? [left, right] : null;
}
