import type { MathSymbol } from '../types.js';
import type { Glyph } from './element.js';
import { FUNCTION_NAMES } from './words.js';

/** A runner-up letter the classifier gives less than this is a different shape, not a look-alike. */
const PLAUSIBLE = 0.05;
/** Letters of one word stand closer than this, in heights of the glyph weighed. */
const LETTER_GAP = 0.5;

const isLetter = (latex: string) => /^[a-zA-Z]$/u.test(latex);

/**
 * Reads a look-alike inside a function name as the name's letter: between an upright `l` and `g`
 * the ring the classifier calls `\circ` (or the `O` it calls a capital) is the `o` of `\log`. Only a
 * label the classifier itself offers (its top one included, where the line's sizes traded it away) is taken, and only when it completes a name that the
 * neighbouring letters on the line spell around it and that the top label does not.
 */
export function readNameLetters(symbols: MathSymbol[], glyphs: Glyph[]): Glyph[] {
  const order = glyphs.map((_, index) => index).sort((a, b) => glyphs[a]!.box.x0 - glyphs[b]!.box.x0);
  return glyphs.map((glyph, index) => {
    // The classifier's own top label is among them: the line's sizes may have traded it for a runner-up
    // (an `o` beside subscripts that pull the line down measures as an `O`).
    const { latex, confidence } = symbols[index]!;
    const offered = [{ latex, confidence }, ...(symbols[index]!.alternatives ?? [])];
    const letters = offered.filter((a) => a.confidence >= PLAUSIBLE && isLetter(a.latex) && a.latex !== glyph.latex);
    if (!letters.length) return glyph;
    const at = order.indexOf(index);
    const left = run(glyphs, order, at, -1);
    const right = run(glyphs, order, at, 1);
    if (!left.length && !right.length) return glyph;
    const word = (middle: string) => `${left.map((g) => g.latex).join('')}${middle}${right.map((g) => g.latex).join('')}`;
    const spells = (middle: string) => FUNCTION_NAMES.some((name) => covers(word(middle), name, left.length));
    if (spells(glyph.latex)) return glyph;
    const letter = letters.find((candidate) => spells(candidate.latex));
    if (!letter) return glyph;
    const upright = [...left, ...right].some((g) => g.style === 'upright');
    return { ...glyph, latex: letter.latex, confidence: letter.confidence, style: upright ? 'upright' : glyph.style };
  });
}

/** The letters next to `order[at]` in direction `step` on its line, nearest first in reading order. */
function run(glyphs: Glyph[], order: number[], at: number, step: -1 | 1): Glyph[] {
  const self = glyphs[order[at]!]!.box;
  const height = self.y1 - self.y0;
  const found: Glyph[] = [];
  let previous = self;
  for (let k = at + step; k >= 0 && k < order.length; k += step) {
    const other = glyphs[order[k]!]!;
    const gap = step > 0 ? other.box.x0 - previous.x1 : previous.x0 - other.box.x1;
    const overlap = Math.min(other.box.y1, self.y1) - Math.max(other.box.y0, self.y0);
    // A glyph of another line (a matrix's next row, a limit) lies between in x but not on the way.
    if (overlap < 0.5 * height) continue;
    if (!isLetter(other.latex) || gap > LETTER_GAP * height) break;
    found.push(other);
    previous = other.box;
  }
  return step > 0 ? found : found.reverse();
}

/** True when `name` occurs in `word` over the position `at`. */
function covers(word: string, name: string, at: number): boolean {
  for (let start = Math.max(0, at - name.length + 1); start <= at && start + name.length <= word.length; start++) {
    if (word.startsWith(name, start)) return true;
  }
  return false;
}
