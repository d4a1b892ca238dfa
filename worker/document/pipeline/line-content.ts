import { isCjkChar, isMathChar } from '../../engine/math/unicode-latex.js';
import { isTypewriterFont } from '../../../page/processors/text-layer-code.js';
import { FUNCTION_NAME } from './inline.js';
import type { Glyph, TextLine } from './text-layer.js';

/**
 * What a born-digital text line holds, as the display finder (math-regions.ts) weighs it: words
 * of prose, maths glyphs, a relation to open a display's row with.
 */

/**
 * A CJK character counts as this many letters: it is set an em wide, as wide as two Latin letters,
 * and says as much as a short word (a Chinese paragraph's line with `p_i, i=1,2,\dots,N` twice in it is prose).
 */
const CJK_LETTERS = 2;

/**
 * The letters of a line's words: runs of two or more letters in a text font that are not an
 * operator name, or CJK characters. `identifiers` leaves out words in a typewriter face, which a
 * display sets as names (`\texttt{width} = …`), not as prose.
 */
function wordLetters(line: TextLine, identifiers = false): number {
  const words: Glyph[][] = [[]];
  for (const g of line.glyphs) {
    if (g.ch === ' ') words.push([]);
    else words[words.length - 1].push(g);
  }
  // Runs of text-font letters: `sin((sin` is two operator names, not a word.
  return words
    .flatMap((w) =>
      w
        .map((g) => (!g.mathFont && /\p{L}/u.test(g.ch) && !isMathChar(g.ch) && !(identifiers && isTypewriterFont(g.font)) ? g.ch : ' '))
        .join('')
        .split(' '),
    )
    .filter((letters) => (letters.length >= 2 || [...letters].some(isCjkChar)) && !FUNCTION_NAME.test(letters))
    .reduce((sum, letters) => sum + [...letters].reduce((n, ch) => n + (isCjkChar(ch) ? CJK_LETTERS : 1), 0), 0);
}

const mathGlyphs = (line: TextLine) => line.glyphs.filter((g) => (g.mathFont && /\S/.test(g.ch)) || isMathChar(g.ch)).length;

/** True when the line has a word of prose. */
export const hasWords = (line: TextLine) => wordLetters(line) > 0;

/**
 * True when the line reads as prose: it has words, and their letters are at least as many as its
 * maths glyphs. A row of maths with a `\text{…}` word in it (`|M^{\text{viol}}|^2 = …`) is maths.
 */
export function readsAsProse(line: TextLine): boolean {
  const letters = wordLetters(line, true);
  return letters > 0 && letters >= mathGlyphs(line);
}

export const hasMath = (line: TextLine) => mathGlyphs(line) > 0;

/** A formula with words in it has at most this many letters of words for each maths glyph (`y = y' \text{ if and only if } y'_k = …`). */
const WORDY_LETTERS_PER_GLYPH = 2;

/**
 * A display of maths and words (`\det K(i|i) = \text{the number of spanning trees of } G`,
 * `\mathbf{y} = \mathbf{y}' \quad\text{if and only if}\quad …`) reads as prose by its letters,
 * but stands centred in its column, away from a paragraph's edges, with a relation: a display
 * when an equation number stands level with it, or when its words are few beside its maths.
 */
export function wordyDisplay(line: TextLine, numbered: boolean, centred: boolean): boolean {
  if (!centred || !line.glyphs.some((g) => RELATION_CHARS.has(g.ch))) return false;
  // A relation is maths in whatever font TeX set it (`=` comes from the text font).
  const relations = line.glyphs.filter((g) => RELATION_CHARS.has(g.ch) && !g.mathFont && !isMathChar(g.ch)).length;
  return numbered || wordLetters(line, true) <= WORDY_LETTERS_PER_GLYPH * (mathGlyphs(line) + relations) || quadSetWords(line);
}

/** A display sets its words a quad from its maths (`\quad\text{otherwise}`); prose a word space. */
const QUAD_EM = 0.8;

/**
 * True when every word of prose on the line stands at least a quad from the maths beside it, and
 * some does: `a = b, \quad\text{otherwise}` is a formula with a word, however long the word.
 */
function quadSetWords(line: TextLine): boolean {
  const runs: Array<{ glyphs: Glyph[]; word: boolean }> = [];
  for (const g of line.glyphs) {
    if (g.ch === ' ') continue;
    const word = !g.mathFont && /\p{L}/u.test(g.ch) && !isMathChar(g.ch);
    const last = runs.at(-1);
    const touching = last && g.x - (last.glyphs.at(-1)!.x + last.glyphs.at(-1)!.w) < 0.2 * line.size;
    if (last && last.word === word && touching) last.glyphs.push(g);
    else runs.push({ glyphs: [g], word });
  }
  const isWord = (run: (typeof runs)[number]) => run.word && run.glyphs.length >= 2 && !FUNCTION_NAME.test(run.glyphs.map((g) => g.ch).join(''));
  let boundaries = 0;
  for (let i = 1; i < runs.length; i++) {
    const [before, after] = [runs[i - 1]!, runs[i]!];
    if (isWord(before) === isWord(after) || before.word === after.word) continue;
    const gap = after.glyphs[0]!.x - (before.glyphs.at(-1)!.x + before.glyphs.at(-1)!.w);
    if (gap < QUAD_EM * line.size) return false;
    boundaries++;
  }
  return boundaries > 0;
}

/** Relations a display's row can open with (`&= …`, `&\le …`): no line of prose starts with one. */
export const RELATION_CHARS = new Set('=<>≤≥≠≈≡∼≃≅∝→←⇒⇐⇔↔⟶⟹⟺↦⊂⊆⊃⊇∈≪≫⩽⩾≺≻⪯⪰⊨⊢≐≜');

/** True when the line's first glyph is a relation (TeX sets `=` in the text font). */
export function opensWithRelation(line: TextLine): boolean {
  const first = line.glyphs.find((g) => /\S/.test(g.ch));
  return first !== undefined && RELATION_CHARS.has(first.ch);
}
