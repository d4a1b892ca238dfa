import type { Box, RowSpan } from '../../engine/math/types.js';
import type { TextLine } from './text-layer.js';

/**
 * Two displays with no text between them (`\[ a \] \[ b \]`) stand about as close as the rows of
 * one gather, and a display's limits and fractions bring their ink closer still, so the grouping
 * by ink gaps (math-regions.ts) takes them for one display's rows. What tells them apart is TeX's
 * own spacing between the rows' boxes. amsmath sets each row of align, gather, eqnarray and
 * multline on a strut (0.7 and 0.3 of \baselineskip above and below the baseline) and stacks the
 * rows \baselineskip + \jot apart, or \lineskip + \jot (0.4 em) box to box where tall rows would
 * collide: between two rows' strutted boxes there are hardly more than 0.4 em of white. Two
 * displays are parted by the display skips (with no text between them, the short ones), more than
 * that even where tall content brings their boxes together. Measured on a pdflatex page: a
 * gather's rows holding a fraction, a sum with limits and a binomial leave 0.48–0.49 em between
 * their strutted boxes; `\[ |\frac{a}{b}| \le \|v\| \] \[ \iint_D … \]` leaves 0.69 em. At a page's
 * foot TeX shrinks the display skips (10 pt minus 5) to fit the page, and a display over an
 * equation whose split's first row has an exponent above its strut was left 0.55 em; fully shrunk
 * the same pair leaves 0.48, which no threshold can tell from a gather's rows.
 */

/** Ink of the same glyph this close (em) stands in one column TeX set (born-digital positions are exact). */
const SAME_COLUMN_EM = 0.01;
/** White (em) between two rows' strutted boxes above which they belong to two displays (between the 0.49 and 0.55 em measured above). */
const DISPLAY_GAP_EM = 0.52;
/** Displays set one under the other are centred on one line, their middles this close (em). */
const SAME_CENTRE_EM = 1;
/** The part of \baselineskip a strut stands above the baseline (LaTeX's \strutbox: 0.7, and 0.3 below). */
const STRUT_HEIGHT = 0.7;
/** \baselineskip in ems when the page shows no paragraph to measure it by (LaTeX's standard classes: 1.2). */
const DEFAULT_LEADING = 1.2;
/** Baselines of consecutive paragraph lines further apart than this (em) are not the leading (a paragraph break, a heading). */
const MAX_LEADING = 2.5;

/** A display's rows as the parser reads them, and whether they are centred rows (`gathered`) with no alignment point. */
export type ReadRows = (box: Box) => { rows: RowSpan[]; gathered: boolean } | undefined;

interface Grouped {
  lines: TextLine[];
  box: Box;
  parts: Box[];
}

/**
 * The page's \baselineskip in ems of its text: the commonest pitch of consecutive lines of words in
 * one column, which a class's or \linespread's leading sets for display rows' struts too.
 */
export function proseLeading(wordLines: TextLine[]): number {
  const lines = [...wordLines].sort((a, b) => a.top - b.top);
  const counts = new Map<number, number>();
  for (let i = 0; i + 1 < lines.length; i++) {
    const a = lines[i]!;
    // The next line of the same column: the first below that overlaps it sideways.
    const b = lines.slice(i + 1).find((l) => l.top > a.base && a.x0 < l.x1 && l.x0 < a.x1);
    if (!b || Math.abs(a.size - b.size) > 0.05 * a.size) continue;
    const pitch = Math.round(((b.base - a.base) / a.size) * 50) / 50;
    if (pitch > 1 && pitch < MAX_LEADING) counts.set(pitch, (counts.get(pitch) ?? 0) + 1);
  }
  const [best] = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return best && best[1] >= 3 ? best[0] : DEFAULT_LEADING;
}

/**
 * Each group cut where two of its rows, as the parser reads them, stand a display skip apart, when
 * the parts are centred on one line as displays of their own are. Rows the parser aligned are cut
 * only where their relations do not hold one column exactly: TeX sets the same relation of an
 * align's rows at one x to the hundredth of a point, while separate centred displays line their
 * relations up only by chance (`\le` over `=`). Lines and parts go to the side their middle is on.
 */
export function splitAdjacentDisplays<G extends Grouped>(groups: G[], readRows: ReadRows | undefined, leading: number): G[] {
  if (!readRows) return groups;
  return groups.flatMap((group) => {
    if (group.lines.length < 2) return [group];
    const read = readRows(group.box);
    if (!read) return [group];
    const cuts = displayCuts(read.rows, leading, !read.gathered);
    if (cuts.length === 0) return [group];
    const bounds = [-Infinity, ...cuts, Infinity];
    const middle = (b: Box) => (b.y0 + b.y1) / 2;
    const displays = bounds.slice(1).flatMap((end, i) => {
      const start = bounds[i]!;
      const lines = group.lines.filter((l) => (l.top + l.bottom) / 2 > start && (l.top + l.bottom) / 2 <= end);
      const parts = group.parts.filter((b) => middle(b) > start && middle(b) <= end);
      if (lines.length === 0 || parts.length === 0) return [];
      const box = parts.reduce((a, b) => ({ x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) }));
      return [{ ...group, lines, parts, box }];
    });
    // Displays of their own are centred, each on the column's middle; rows aligned flush left
    // (`&\int … \\ &\phantom{…}\le …`) are not, and stay one display.
    const centres = displays.map((d) => (d.box.x0 + d.box.x1) / 2);
    const em = Math.max(...group.lines.map((l) => l.size));
    return Math.max(...centres) - Math.min(...centres) <= SAME_CENTRE_EM * em ? displays : [group];
  });
}

/**
 * The y between each two consecutive rows whose strutted boxes leave more white than rows of one
 * display do. A row the parser found no baseline for (a matrix, a stack of limits) is measured by
 * its ink, at its neighbour's size: rows that tall meet at \lineskip, not at their struts.
 */
function displayCuts(rows: RowSpan[], leading: number, aligned: boolean): number[] {
  const cuts: number[] = [];
  for (let i = 0; i + 1 < rows.length; i++) {
    const [upper, lower] = [rows[i]!, rows[i + 1]!];
    const em = Math.max(upper.em ?? 0, lower.em ?? 0);
    if (em === 0 || (aligned && oneColumn(upper, lower, em))) continue;
    const skip = leading * em;
    const bottom = upper.baseline === undefined ? upper.y1 : upper.baseline + Math.max(upper.y1 - upper.baseline, (1 - STRUT_HEIGHT) * skip);
    const top = lower.baseline === undefined ? lower.y0 : lower.baseline - Math.max(lower.baseline - lower.y0, STRUT_HEIGHT * skip);
    if (top - bottom > DISPLAY_GAP_EM * em) cuts.push((upper.y1 + lower.y0) / 2);
  }
  return cuts;
}

/** Whether two aligned rows hold their alignment point with the same relation at the same x. */
function oneColumn(upper: RowSpan, lower: RowSpan, em: number): boolean {
  const [a, b] = [upper.anchor, lower.anchor];
  return a !== undefined && b !== undefined && a.latex === b.latex && Math.abs(a.x0 - b.x0) <= SAME_COLUMN_EM * em;
}
