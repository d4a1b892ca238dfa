import { EQUATION_NUMBER } from '../../../page/equation-number.js';
import type { Box } from '../../engine/math/types.js';
import { makeLine, type Glyph, type TextLine } from './text-layer.js';

/**
 * Equation numbers beside display maths on a born-digital page: `(1)`, `(2.3a)`, `(A1)`, `(4′)`,
 * and `\tag{*}`'s starred marks. amsmath sets them at the right margin, or at the left with
 * `leqno`; where the formula runs close to the margin (the last row of a multline, flalign's
 * right column) the number is only \multlinetaggap or \mintagsep (0.5–1 em) from the maths, and
 * the text layer keeps both in one line.
 */

export { EQUATION_NUMBER };

/** White between a formula and a number in the same text line that parts them: a word space is 0.33 em, amsmath's least tag gap 0.5 em. */
const TAG_GAP_EM = 0.45;
/** A number parted from its formula ends (or starts) this close to its column's edge, as amsmath sets it. */
const MARGIN_EM = 0.5;

/** An equation number's text without its parentheses, a starred mark spelled `*`. */
export function tagText(number: TextLine): string {
  return number.text.trim().slice(1, -1).trim().replace(/[∗⋆]/gu, '*').replace(/[′’]/gu, "'");
}

/**
 * The numbers level with a display beside its ink, their middles within its height: those at its
 * right, or where none stand there, at its left (leqno), but never across a two-column page's
 * gutter, where the other column's numbers stand. `parts` are the display's ink boxes: a
 * multline's number stands inside its box, at the right of its last row, whose first row runs
 * almost to the margin.
 */
export function levelNumbers(box: Box, parts: Box[], numbers: TextLine[], gutter: number | undefined): TextLine[] {
  const level = numbers.filter((n) => (n.top + n.bottom) / 2 >= box.y0 && (n.top + n.bottom) / 2 <= box.y1);
  const row = (n: TextLine) => {
    const middle = (n.top + n.bottom) / 2;
    const beside = parts.filter((p) => p.y0 <= middle && p.y1 >= middle && !(p.x0 >= n.x0 && p.x1 <= n.x1));
    return beside.length ? beside : [box];
  };
  // A number across the gutter is the other column's.
  const across = (n: TextLine) => gutter !== undefined && ((n.x1 <= gutter && box.x0 >= gutter) || (n.x0 >= gutter && box.x1 <= gutter));
  const right = level.filter((n) => n.x0 > Math.max(...row(n).map((p) => p.x1)) && !across(n));
  const left = () => level.filter((n) => n.x1 < Math.min(...row(n).map((p) => p.x0)) && !across(n));
  return (right.length ? right : left()).sort((a, b) => a.top - b.top);
}

/** A moved number's line is this many ems or less from the display's ink. */
const MOVED_GAP_EM = 0.6;

/**
 * The number amsmath moved off a display too wide to leave it room: on a line of its own under
 * the last row at the right, or with leqno over the first row at the left. Alone on its row under
 * (or over) the display, so that it cannot be the number of a display or a line beside it.
 */
export function movedNumber(box: Box, em: number, lines: TextLine[], numbers: Set<TextLine>): TextLine[] {
  // Alone across the display's width: the other column of a two-column page has lines on every row.
  const alone = (n: TextLine) =>
    !lines.some((l) => l !== n && l.top < n.bottom && l.bottom > n.top && l.x0 < Math.max(box.x1, n.x1) && l.x1 > Math.min(box.x0, n.x0));
  const below = (n: TextLine) => n.top >= box.y1 - 0.2 * em && n.top - box.y1 <= MOVED_GAP_EM * em && n.x0 > box.x0 && n.x1 > box.x1 - em;
  const above = (n: TextLine) => n.bottom <= box.y0 + 0.2 * em && box.y0 - n.bottom <= MOVED_GAP_EM * em && n.x1 < box.x1 && n.x0 < box.x0 + em;
  const moved = lines.filter((n) => numbers.has(n) && (below(n) || above(n)) && alone(n));
  return moved.length === 1 ? moved : [];
}

const ink = (glyphs: Glyph[]) => glyphs.filter((g) => /\S/.test(g.ch));

/**
 * Lines of maths that end (or, with leqno, start) with an equation number at their column's edge,
 * parted from the formula by more than a word space, cut into the formula and the number. A
 * paragraph's line ending in a reference `(3)` keeps it: `isMaths` tells a formula from prose.
 */
export function splitEquationNumbers(
  lines: TextLine[],
  edgeOf: (line: TextLine) => { left: number; right: number } | undefined,
  isMaths: (line: TextLine) => boolean,
): TextLine[] {
  return lines.flatMap((line) => {
    const edge = edgeOf(line);
    const glyphs = ink(line.glyphs);
    if (!edge || glyphs.length < 4) return [line];
    const em = line.size;
    const closing = glyphs.map((g) => g.ch).lastIndexOf(')');
    if (closing === glyphs.length - 1 && line.x1 >= edge.right - MARGIN_EM * em) {
      const opening = glyphs.map((g) => g.ch).lastIndexOf('(');
      const cut = opening > 0 ? split(line, glyphs[opening - 1]!, glyphs[opening]!, isMaths) : undefined;
      if (cut) return cut;
    }
    if (glyphs[0]!.ch === '(' && line.x0 <= edge.left + MARGIN_EM * em) {
      const close = glyphs.findIndex((g) => g.ch === ')');
      const cut = close > 0 && close < glyphs.length - 1 ? split(line, glyphs[close]!, glyphs[close + 1]!, isMaths) : undefined;
      if (cut) return cut;
    }
    return [line];
  });
}

/** The line cut between glyphs `a` and `b`, when the white between them is a tag's, one side is an equation number and the other maths. */
function split(line: TextLine, a: Glyph, b: Glyph, isMaths: (line: TextLine) => boolean): TextLine[] | undefined {
  if (b.x - (a.x + a.w) < TAG_GAP_EM * line.size) return undefined;
  const before = makeLine(line.glyphs.filter((g) => g.x < b.x));
  const after = makeLine(line.glyphs.filter((g) => g.x >= b.x));
  if (!before || !after) return undefined;
  const [number, formula] = EQUATION_NUMBER.test(after.text.trim()) ? [after, before] : [before, after];
  return EQUATION_NUMBER.test(number.text.trim()) && isMaths(formula) ? [before, after] : undefined;
}
