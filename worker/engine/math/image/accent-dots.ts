import type { MathSymbol } from '../types.js';
import type { SymbolClassifier } from './classifier.js';
import type { ComponentMap } from './components.js';
import type { SymbolGroup } from './merge.js';
import { normaliseCrop } from './normalise.js';
import type { ClassifiedGroup } from './split.js';
import { DOT_TOKENS } from './vocabulary.js';

/** A glyph read less surely than this may be a letter with its `\dot` accent joined to it. */
const DOUBTED_BELOW = 0.5;
/** The letter alone must be read at least this surely. */
const LETTER_SURE = 0.5;
/** The dot's centre lies within this fraction of the letter's width from the letter's centre. */
const CENTRED_WITHIN = 0.25;
/** Glyphs that are a stem and a dot: what is left of them without the dot is no letter of its own. */
const DOTTED = new Set(['i', 'j', '\\mathrm{i}', '\\mathrm{j}', ';', '!', '?']);

/**
 * The merge step joins a dot to the stem under it (i, j), and at 150 dpi a `\dot` accent over a
 * q or a p passes for that: the pair reads as something else (`\dot{q}` as 4), unsurely. Such a
 * glyph is classified again without the dot; when the letter alone reads surely, the dot goes back
 * to being a dot of its own, which the front end then places as an accent.
 */
export async function freeAccentDots(
  map: ComponentMap,
  items: ClassifiedGroup[],
  classifier: SymbolClassifier,
  emPx: number | undefined,
): Promise<ClassifiedGroup[]> {
  const trials = items.flatMap((item) => {
    if (!item.label || item.label.confidence >= DOUBTED_BELOW || DOTTED.has(item.label.latex)) return [];
    const split = dotOver(item.group);
    return split ? [{ item, ...split }] : [];
  });
  if (!trials.length) return items;
  const labels = await classifier.classify(
    trials.map(({ letter }) =>
      normaliseCrop(
        map,
        letter.parts.map((part) => part.id),
        letter.box,
        emPx,
      ),
    ),
  );
  const replaced = new Map<ClassifiedGroup, ClassifiedGroup[]>();
  trials.forEach(({ item, letter, dot }, k) => {
    const label = labels[k];
    if (label.confidence < LETTER_SURE || label.confidence <= item.label!.confidence || DOTTED.has(label.latex)) return;
    const dotLabel = { latex: DOT_TOKENS.period, confidence: label.confidence, alternatives: [] };
    replaced.set(item, [
      { group: letter, label },
      { group: dot, label: dotLabel },
    ]);
  });
  return items.flatMap((item) => replaced.get(item) ?? [item]);
}

/** A two-part group whose smaller part sits wholly above the other, centred over it: the letter and its dot apart. */
function dotOver(group: SymbolGroup): { letter: SymbolGroup; dot: SymbolGroup } | null {
  if (group.parts.length !== 2) return null;
  const [dot, letter] = [...group.parts].sort((a, b) => a.area - b.area);
  const width = letter.box.x1 - letter.box.x0;
  const offset = Math.abs((dot.box.x0 + dot.box.x1) / 2 - (letter.box.x0 + letter.box.x1) / 2);
  if (dot.box.y1 > letter.box.y0 + 1 || offset > CENTRED_WITHIN * width) return null;
  return { letter: { parts: [letter], box: letter.box, rule: false }, dot: { parts: [dot], box: dot.box, rule: false } };
}

/**
 * A dot over a comma is a semicolon whose parts the merge step left apart (at 150 dpi the gap
 * between them is as wide as the dot), not a `\dot` accent over a comma, which maths never writes.
 */
export function joinSemicolons(symbols: MathSymbol[]): MathSymbol[] {
  const dropped = new Set<MathSymbol>();
  const joined = symbols.map((comma) => {
    if (comma.latex !== ',') return comma;
    const dot = symbols.find(
      (s) => s.latex === DOT_TOKENS.accent && !dropped.has(s) && s.box.x1 > comma.box.x0 && s.box.x0 < comma.box.x1 && s.box.y1 <= comma.box.y0,
    );
    if (!dot) return comma;
    dropped.add(dot);
    const box = { x0: Math.min(dot.box.x0, comma.box.x0), y0: dot.box.y0, x1: Math.max(dot.box.x1, comma.box.x1), y1: comma.box.y1 };
    return { ...comma, latex: ';', box, confidence: Math.min(dot.confidence, comma.confidence) };
  });
  return joined.filter((s) => !dropped.has(s));
}
