import type { PageLine } from '../model.js';
import { wordCount } from './line-measures.js';

/**
 * Headings of a recognised page image, as a born-digital page finds them from font sizes
 * (page/processors/text-layer-blocks.ts). A scan has no fonts: a line's box height stands for its
 * size, against the body's line height. A heading is a row of text (a section number and its
 * title may be read as two lines side by side, the number even by the maths engine) that stands
 * alone — set apart from the line above and the line below by more than the page's usual space
 * between lines, unless that line is a heading of the same size (a title on two lines) — is
 * short, ends without a sentence's punctuation, and either
 * - is set larger than the body: level 1 or 2 by HEADING_RATIOS, and either narrower than
 *   HEADING_MAX_WIDTH of the page's widest text line or of at most HEADING_SHORT_WORDS words (a
 *   box's height varies with the letters it holds, so a full line of body text can measure as
 *   large as a level-2 heading); or
 * - starts with a section number (`2`, `2.1`, `2.1.` or `1.` before a capital): level 2 for a
 *   section, 3 below it, as LaTeX's \section and \subsection come out of a born-digital page.
 *   A single number with a full stop (`1. Introduction`) is also how a numbered list item
 *   starts: it is a heading only where the lines either side do not start with numbers too.
 */

/**
 * Box-height ratios (row to body line) of heading levels 1 and 2. The text model's boxes carry
 * a margin that grows less than the type: a 20 pt heading over 11 pt text (1.8 times, level 1 on
 * a born-digital page) gives boxes 1.27 times as tall, and body lines of one size vary by up to
 * 1.15 times (ascenders, brackets), so a third level cannot be told by size.
 */
export const HEADING_RATIOS = [1.2, 1.16];
/** Font-size ratios (line to body) of heading levels 1 to 3 on a born-digital page, whose sizes are exact. */
export const FONT_SIZE_RATIOS = [1.6, 1.3, 1.15];
/** A heading by size spans at most this share of the widest text line: a longer row is body text. */
export const HEADING_MAX_WIDTH = 0.6;
/** ... unless it holds at most this many words (a short heading over a narrow column). */
export const HEADING_SHORT_WORDS = 6;
/** A heading holds at most this many words. */
export const HEADING_MAX_WORDS = 12;
/** Space around a heading beyond the usual space between lines, in body line heights. */
export const HEADING_SPACE = 0.15;
/** Body lines a page needs before any of its lines is told a heading by its size. */
export const MIN_BODY_LINES = 3;

const SECTION_NUMBER = /^(\d{1,2}(?:\.\d{1,2})*)(\.?)\s+\p{Lu}/u;
const NUMBERED = /^\d{1,2}[.)]?\s/;
const SENTENCE_END = /[.,;:!?]$/;

type Box = PageLine['box'];

export interface HeadingContext {
  /** The row's lines (one, or a number and its title side by side) and their boxes. */
  row: PageLine[];
  boxes: Box[];
  /** The lines just above and below the row (undefined at the page's top and bottom), with the space to them in pixels. */
  above?: { gap: number; height: number };
  below?: { gap: number; height: number };
  /** Text of the lines above and below the row. */
  before?: string;
  after?: string;
  /** Body line height, the usual space between lines, how many text lines the page holds and the widest one's width. */
  lineHeight: number;
  textWidth: number;
  lineGap: number;
  textLines: number;
}

/** A heading line's words: a section number the maths engine read is written as read, without delimiters. */
export const headingText = (l: PageLine) => (l.kind === 'math' ? (l.math?.latex ?? l.text) : l.text).trim();

/** A heading level by size: the ratio of a line's size to the body's against a source's `ratios` (level 1's first). */
export function levelBySize(ratio: number, ratios: readonly number[]): number | undefined {
  const k = ratios.findIndex((r) => ratio >= r);
  return k < 0 ? undefined : k + 1;
}

/**
 * The heading level a section number gives a line that stands alone (every source): level 2 for
 * a section (`2 Title`, `2. Title`), 3 below it (`2.1 Title`), as LaTeX's \section and
 * \subsection are set. The line is short, has a word after its number and ends without a
 * sentence's punctuation; a single number with a full stop is also how a numbered list item
 * starts, so it is a heading only where the lines either side (`before`, `after`) are not numbered.
 */
export function sectionNumberLevel(text: string, before?: string, after?: string): number | undefined {
  if (wordCount(text) > HEADING_MAX_WORDS || SENTENCE_END.test(text)) return undefined;
  const numbered = SECTION_NUMBER.exec(text);
  if (!numbered || !/\p{L}{2}/u.test(text.slice(numbered[1]!.length)) || text.includes('=')) return undefined;
  const depth = numbered[1]!.split('.').length;
  const listLike = depth === 1 && numbered[2] === '.' && [before, after].some((t) => t !== undefined && NUMBERED.test(t.trim()));
  return listLike ? undefined : Math.min(depth + 1, 3);
}

/** The heading level of a row of lines, or undefined when it is no heading. */
export function headingLevel(c: HeadingContext): number | undefined {
  const [first, ...rest] = c.row;
  const numberRead = first!.kind === 'math' && rest.length > 0;
  if ((numberRead ? rest : c.row).some((l) => l.kind === 'math' || l.chemistry || l.segments?.some((s) => s.kind === 'math'))) return undefined;
  const text = c.row.map((l) => headingText(l)).join(' ');
  if (!text || wordCount(text) > HEADING_MAX_WORDS || SENTENCE_END.test(text)) return undefined;
  const ratio = Math.max(...c.boxes.map((b) => b.height)) / c.lineHeight;
  const width = Math.max(...c.boxes.map((b) => b.x + b.width)) - Math.min(...c.boxes.map((b) => b.x));
  const short = width <= HEADING_MAX_WIDTH * c.textWidth || wordCount(text) <= HEADING_SHORT_WORDS;
  const bySize = short ? HEADING_RATIOS.findIndex((r) => ratio >= r) : -1;
  const sizeOf = (height: number) => HEADING_RATIOS.findIndex((r) => height / c.lineHeight >= r);
  const apart = (n: HeadingContext['above']) =>
    n === undefined || n.gap > c.lineGap + HEADING_SPACE * c.lineHeight || (bySize >= 0 && sizeOf(n.height) === bySize);
  if (!apart(c.above) || !apart(c.below)) return undefined;
  if (bySize >= 0 && c.textLines - c.row.length >= MIN_BODY_LINES && /\p{L}/u.test(text)) return bySize + 1;
  return sectionNumberLevel(text, c.before, c.after);
}
