import { isEquationNumber } from '../../page/equation-number.js';
import { sharesRows, type Box } from '../../page/geometry.js';
import type { MathRead } from '../../page/model.js';
import { countWords } from '../../page/processors/words.js';
import { hasMathStructure, MIN_MATH_RATE, spellsProse } from './line-kind.js';

/**
 * Displays the text model reads as words. First, those whose variables are words: `Twiddle~First & = & Second`, `And~(And~a~b)~c = And~a~(And~b~c)`,
 * an eqnarray of italic names (a functional program's equations, a definition in words). The text
 * model reads their names as words, so the row reads as prose (rule 1 of line-kind.ts), and the
 * maths read, which spells the italic letters as maths letters, is never asked. Such a row is told
 * by its text read and its place:
 * - a relation standing alone between two runs of names (`=`, `<`, `≤`, `→`, …, alone or run into a
 *   name: `=Identity`; the text model reads an `=` between italic names as `Ⅱ` at times), or two runs of names side by
 *   side on the row RELATION_GAP line heights apart or more (`Singleton a` and `Cons a Nil`: the text
 *   model read nothing of the `=` between them, and words of one line stand a space apart);
 * - no word of a sentence: none of the short words prose cannot go without (`the`, `of`, `is`, `we`,
 *   …) nor a keyword of pseudo-code (`while N ≠ 0 do`), no sentence punctuation ending a word, few
 *   words (MAX_NAMES);
 * - set in from its column's left edge by ROW_INDENT line heights (a display's indent; a line of a
 *   paragraph starts at the edge or at the paragraph indent, and those hold sentences anyway).
 * Such a row is maths when its maths read holds the relation and spells no upright word (the names
 * are italic letters to the maths engine) with a per-symbol confidence of MIN_MATH_RATE.
 */

const RELATION_TOKEN = /^(?:=|<|>|≤|≥|≠|≡|≈|→|⇒|⇔|↦|Ⅱ)$/u;
const RELATION_MARK = /[=<>≤≥≠≡≈→⇒⇔↦Ⅱ]/gu;
/** Words a sentence goes with, and a row of names never holds. */
const SENTENCE_WORDS = new Set(
  'the an of is are was be to in on for with that this these we it its as by from at then where which if so not but can let has have may must while do else end return repeat until'.split(
    ' ',
  ),
);
/** At most this many words of prose in the row (names count as words to words.ts). */
export const MAX_NAMES = 6;
/** The row starts at least this many line heights right of its column's left edge. */
export const ROW_INDENT = 1;

/**
 * The left edge of the column a row at `x` stands in: where most of its lines of prose start (the
 * lower quartile of their starts, so that a paragraph's indent or a hanging number does not move it).
 */
export function columnLeft(x: number, lines: { box: { x: number; width: number }; text: string }[], gutter: number | undefined): number {
  const side = gutter === undefined ? lines : lines.filter((l) => (x >= gutter ? l.box.x >= gutter : l.box.x + l.box.width <= gutter));
  const starts = side
    .filter((l) => countWords(l.text).words >= 2)
    .map((l) => l.box.x)
    .sort((a, b) => a - b);
  return starts[Math.floor(starts.length / 4)] ?? x;
}

/** Two runs of names on one row this many line heights apart hold a relation the text model did not read. */
export const RELATION_GAP = 0.75;

/** Whether two of a row's text boxes stand side by side on one row (sharing half the lower one's height) RELATION_GAP line heights apart or more. */
export function namesApart(boxes: Box[], lineHeight: number): boolean {
  const sorted = [...boxes].sort((a, b) => a.x - b.x);
  return sorted.some((a, i) => sorted.slice(i + 1).some((b) => sharesRows(a, b) && b.x - (a.x + a.width) >= RELATION_GAP * lineHeight));
}

/**
 * Whether a row's text read and place say it may be a display of names about a relation (read its
 * maths); `boxes`: its text lines' boxes, which may stand apart on the row (`namesApart`).
 */
export function namesAboutRelation(text: string, rowX: number, columnX: number, lineHeight: number, boxes: Box[] = []): boolean {
  // A relation the text model ran into a name (`=Identity`) stands alone all the same.
  const tokens = text.replace(RELATION_MARK, ' $& ').split(/\s+/).filter(Boolean);
  const at = tokens.findIndex((t) => RELATION_TOKEN.test(t));
  if ((at <= 0 || at === tokens.length - 1) && !namesApart(boxes, lineHeight)) return false;
  if (tokens.some((t) => SENTENCE_WORDS.has(t) || /[a-z][.,;:!?]$/.test(t))) return false;
  return countWords(text).words <= MAX_NAMES && rowX - columnX >= ROW_INDENT * lineHeight;
}

/** Whether the maths read of such a row is it: a relation, no upright word, read surely enough. */
export function readsNamesAboutRelation(math: MathRead): boolean {
  return (
    /=|<|>|\\(?:leq?|geq?|neq?|equiv|approx|to|rightarrow|Rightarrow|Leftrightarrow|mapsto)(?![A-Za-z])/.test(math.latex) &&
    !/\\text\{[A-Za-z]{2,}/.test(math.latex) &&
    math.confidenceRate >= MIN_MATH_RATE
  );
}

/**
 * A row whose text read holds an equation number of its own (a line `(3)` beside the others) is a
 * display, whatever words it holds (`\vec{F}=m\vec{a}\quad\text{or}\quad\mathbf{F}=m\mathbf{a}`,
 * read as `… or … or …` by the text model): no line of prose sets a number apart at its end. It is
 * one when its maths read finds the number at the margin (equation-number.ts) and structure beside
 * it, spells no prose and is read surely enough.
 */
export function holdsEquationNumber(texts: string[]): boolean {
  return texts.length > 1 && texts.some(isEquationNumber);
}

/**
 * Whether the maths read of a row holding an equation number is a display (`holdsEquationNumber`):
 * structure beside the number, or a lone letter (`a (20)`, a row of an align of letters: no line of
 * prose is one letter and a number at the margin).
 */
export function readsNumberedDisplay(math: MathRead): boolean {
  return (
    math.tag !== undefined &&
    (hasMathStructure(math.latex) || /^[A-Za-z]$/.test(math.latex)) &&
    !spellsProse(math.latex) &&
    math.confidenceRate >= MIN_MATH_RATE
  );
}
