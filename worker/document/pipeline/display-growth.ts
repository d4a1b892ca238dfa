import type { Box } from '../../engine/math/types.js';
import { hasMath, opensWithRelation } from './line-content.js';
import { sideGap } from './math-inline.js';
import type { TextLine } from './text-layer.js';

/**
 * Growing one display from its seed line (math-regions.ts): the maths lines, rules and tall glyphs
 * around it join while they stand as close as the parts and rows of one display, and prose or a
 * paragraph between them does not part them.
 */

/** A line set this small against the display's size is script size (7 pt against 10, 8 against 12). */
const LABEL_SIZE_SHARE = 0.8;
/** Maths lines closer than this many ems (ink to ink) belong to one display. */
const JOIN_GAP_EM = 0.45;
/**
 * The rows of align, gather and multline: maths lines stacked under the group's width this close
 * (ink to ink; rows are 1.5 em apart baseline to baseline, so up to about 1.1 em of white, while
 * separate displays are parted by two display skips, over 2 em). The parser splits them again.
 */
const ROW_GAP_EM = 1.15;
/**
 * Rows that each carry an equation number are the rows of one numbered align, gather or eqnarray
 * when this close (ink to ink): amsmath opens rows up by \jot, leaving about 0.4–0.6 em of white,
 * while two numbered equations in a row are parted by the display skips (1 em and more).
 */
const NUMBERED_ROW_GAP_EM = 0.8;
/**
 * …or when their baselines are this close, whatever their ink: rows of short symbols (`a`, `b`, `c`,
 * no ascender) leave a full em of white between them at amsmath's row pitch (\baselineskip plus
 * \jot: 1.46–1.52 em at 10–12 pt), while two numbered equations in a row are parted by the display
 * skips as well (baselines 1.7 em apart when \belowdisplayskip shrinks all it can, 2.2 em usually).
 */
const NUMBERED_ROW_PITCH_EM = 1.6;
/** A delimiter this close (em) beside a display's ink is its own: amsmath's matrices remove \arraycolsep inside their delimiters, leaving a side bearing (0.1 em). */
const DELIMITER_REACH_EM = 0.3;
/** A fraction bar level with a display and this close (em) beside it is its own (a thick space and the null delimiter: 0.4 em). */
const BAR_REACH_EM = 0.8;
/** Maths level with a display and at most this many ems beside it is part of it: \qquad is 2 em, plus the glyphs' side bearings. */
const SPACED_GAP_EM = 3.5;
export const union = (a: Box, b: Box): Box => ({ x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) });
export const lineBox = (l: TextLine): Box => ({ x0: l.x0, y0: l.top, x1: l.x1, y1: l.bottom });
export const intersects = (a: Box, b: Box) => a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1;
export const contains = (outer: Box, inner: Box) => inner.x0 >= outer.x0 && inner.x1 <= outer.x1 && inner.y0 >= outer.y0 && inner.y1 <= outer.y1;

/** What the page says of its lines, as growing a display weighs them. */
interface PageFacts {
  ink: Map<TextLine, Box>;
  prose: Set<TextLine>;
  /** Prose lines at their column's edge (math-inline.ts): a formula level with one is inline, never a display's. */
  paragraph: Set<TextLine>;
  /** Rules and extension-font glyphs. */
  structure: Box[];
  /** The x of a two-column page's gutter: nothing joins across it. */
  gutter?: number;
  /** Lines with their own equation number: two of them are two displays unless set as close as rows. */
  numbered: Set<TextLine>;
  /** Maths set in a text font (textFontMaths), not prose. */
  textMath: (line: TextLine) => boolean;
  /** The parts of fractions set inline in a paragraph's line (inline-fraction-parts.ts): no display's rows. */
  inlineParts: Set<TextLine>;
}

export const acrossGutter = (a: Box, b: Box, gutter: number | undefined) =>
  gutter !== undefined && Math.min(a.x1, b.x1) <= gutter && Math.max(a.x0, b.x0) >= gutter;

export interface Group {
  lines: TextLine[];
  box: Box;
  /** The ink boxes of its lines, rules and tall glyphs. */
  parts: Box[];
  /** A multline's rows (multline-rows.ts): rows that step across the column, no pieces set apart by a wide space. */
  multline?: true;
}

/** Adds neighbouring maths lines, tall glyphs and rules touching the group until nothing more joins. */
export function grow(
  group: Group,
  lines: TextLine[],
  { ink, prose, paragraph, structure, gutter, numbered, textMath, inlineParts }: PageFacts,
  taken: Set<TextLine>,
): void {
  const em = Math.max(...group.lines.map((l) => l.size));
  // A display takes no part of a paragraph's inline fraction; the fraction's own group takes them all.
  const inline = group.lines.some((l) => inlineParts.has(l));
  for (let changed = true; changed;) {
    changed = false;
    // Rules and tall glyphs (delimiters, radicals, big operators) that touch the group are part of it,
    // and those a thin space beside it: vmatrix's bars are hairlines a side bearing from the grid,
    // and a fraction of digits alone (`x = \cfrac{1}{1+…}`) starts a thick space after its `=`.
    for (const b of structure) {
      const reach = (b.y1 - b.y0 > 2 * (b.x1 - b.x0) ? DELIMITER_REACH_EM : BAR_REACH_EM) * em;
      if (!intersects(b, { ...group.box, x0: group.box.x0 - reach, x1: group.box.x1 + reach }) || group.parts.includes(b)) continue;
      group.parts.push(b);
      if (!contains(group.box, b)) [group.box, changed] = [union(group.box, b), true];
    }
    const near: Box = { x0: group.box.x0 - em, y0: group.box.y0 - JOIN_GAP_EM * em, x1: group.box.x1 + em, y1: group.box.y1 + JOIN_GAP_EM * em };
    for (const l of lines) {
      if (taken.has(l) || (inlineParts.has(l) && !inline)) continue;
      const box = ink.get(l)!;
      // A line level with the group's middle (the text of a cases row) joins whatever it says.
      const cy = (box.y0 + box.y1) / 2;
      const levelWith = cy > group.box.y0 && cy < group.box.y1;
      const level = levelWith && !paragraph.has(l) && box.x0 <= group.box.x1 + em && box.x1 >= group.box.x0 - em;
      // Maths level with the group after a wide space (\qquad between a formula and its range) is the same display.
      const spaced =
        levelWith && !prose.has(l) && (hasMath(l) || textMath(l)) && sideGap(box, group.box) <= SPACED_GAP_EM * em && !acrossGutter(box, group.box, gutter);
      // The next row of a multi-line display: a line without prose under (or over) the group, across
      // its width (its first text line may hold only digits and relations: a numerator, `=`).
      const rowGap = Math.max(box.y0 - group.box.y1, group.box.y0 - box.y1);
      const pitch = Math.min(...group.lines.map((g) => Math.abs(g.base - l.base)));
      const ownNumbers = numbered.has(l) && group.lines.some((g) => numbered.has(g)) && rowGap > NUMBERED_ROW_GAP_EM * em && pitch > NUMBERED_ROW_PITCH_EM * em;
      // A row may read as prose when it is text after its relation (`&\le \text{a shorter one}`).
      const rowLike = !prose.has(l) || (opensWithRelation(l) && !paragraph.has(l));
      const row =
        rowLike && !ownNumbers && rowGap <= ROW_GAP_EM * em && box.x0 < group.box.x1 && box.x1 > group.box.x0 && !acrossGutter(box, group.box, gutter);
      // Words at script size right under or over the group, within its width, are its label (`\underset{\text{def}}{=}`).
      const label = l.size <= LABEL_SIZE_SHARE * em && !paragraph.has(l) && rowGap <= JOIN_GAP_EM * em && box.x0 >= group.box.x0 && box.x1 <= group.box.x1;
      if (level || spaced || label || ((row || (!prose.has(l) && intersects(box, near))) && !proseBetween(group.box, box, lines, paragraph, gutter, em))) {
        group.lines.push(l);
        group.box = union(group.box, box);
        group.parts.push(box);
        taken.add(l);
        changed = true;
      }
    }
  }
}

/**
 * Whether a paragraph's line (prose at its column's edge) stands between the group and a line
 * above or below it: the `where` between two equations (or an `\intertext`) parts them. A label
 * under a brace inside the display is prose too, but away from the edges. Prose that ends or
 * starts within an em of the maths on its level does not part it: that is the line an inline
 * fraction sits in, its middle between the numerator and the denominator.
 */
function proseBetween(group: Box, box: Box, lines: TextLine[], paragraph: Set<TextLine>, gutter: number | undefined, em: number): boolean {
  const [upper, lower] = box.y0 >= group.y1 ? [group, box] : [box, group];
  const x0 = Math.min(upper.x0, lower.x0);
  const x1 = Math.max(upper.x1, lower.x1);
  const beside = (p: TextLine) => (p.x1 <= x0 && x0 - p.x1 < em) || (p.x0 >= x1 && p.x0 - x1 < em);
  return lines.some((p) => {
    if (!paragraph.has(p) || acrossGutter(lineBox(p), group, gutter) || beside(p)) return false;
    const middle = (p.top + p.bottom) / 2;
    return middle > upper.y1 && middle < lower.y0;
  });
}
