import type { InkMask } from '../engine/math/image/binarise.js';
import type { Box } from '../engine/text/image.js';
import type { OcrLine } from '../engine/text/index.js';
import { type Band, rowBands } from './bands.js';
import { specksOf, withFullStops } from './specks.js';

/**
 * Rows of ink on a page of two columns. Rows of ink are cut across the whole page (bands.ts), but
 * two columns' lines rarely stand at the same heights: a display in one column moves every line
 * after it, and rows of ink of both columns then run into each other, so that one band holds a
 * display of the left column and a line of prose of the right, or several lines of each, and the
 * maths pass reads them as one formula or none. Where the page's text lines leave a gutter
 * between two columns of prose (page/processors/columns.ts `proseGutter`), each band that the
 * gutter's blank runs through is cut there and its two sides are cut into rows of ink again, each
 * column on its own. A band that crosses the gutter stays whole: ink across it (a title, a figure,
 * a display across the page) or a text line that crosses it.
 */

/**
 * The text lines with those the text model ran across the gutter cut in two there. Across a
 * narrow gutter the text model joins two columns' lines that stand at the same height into one
 * (`…in this section. The se- its own words about…`), which no column holds. A line is cut at the
 * space between its words that the gutter runs through, and one whose box only reaches across it
 * (its words all on one side) keeps its words' columns; a line with a word across the gutter stays
 * whole. Boxes: the line's rows, each part's words' columns.
 */
export function splitAtGutter(lines: OcrLine[], gutter: number | undefined, toUpright: (b: Box) => Box, toInput: (b: Box) => Box): OcrLine[] {
  if (gutter === undefined) return lines;
  return lines.flatMap((line) => {
    const box = toUpright(line.box);
    if (box.x >= gutter || box.x + box.width <= gutter || !line.words.length) return [line];
    const words = line.words.map((w) => ({ word: w, box: toUpright(w.box) }));
    const left = words.filter((w) => w.box.x + w.box.width <= gutter);
    const right = words.filter((w) => w.box.x >= gutter);
    if (left.length + right.length < words.length) return [line];
    return [left, right]
      .filter((part) => part.length)
      .map((part) => {
        const x0 = Math.min(...part.map((w) => w.box.x));
        const x1 = Math.max(...part.map((w) => w.box.x + w.box.width));
        const own = part.map((w) => w.word);
        return {
          ...line,
          text: own.map((w) => w.text).join(' '),
          confidence: own.reduce((sum, w) => sum + w.confidence, 0) / own.length,
          box: toInput({ ...box, x: x0, width: x1 - x0 }),
          words: own,
        };
      });
  });
}

/** The blank strip through a band at the gutter is at least this many line heights wide (a LaTeX gutter is 10–12 pt, a line's box about 14 pt)… */
export const GUTTER_BLANK_LINE_HEIGHTS = 0.25;
/** …and lies within this many line heights of the gutter the text lines leave. */
export const GUTTER_REACH_LINE_HEIGHTS = 0.5;

/**
 * The rows of ink of `page` (bands.ts `inkBands`), each band the gutter runs through cut into its
 * two columns' own rows of ink: the left column's first, then the right's. `lines`: the page's
 * text lines (upright boxes) but equation numbers; one crossing the gutter alone in its rows keeps its band whole. Without a gutter, the
 * page's bands as they are. Each band reaches over the full stop that ends it (specks.ts).
 */
export function columnBands(page: InkMask, gutter: number | undefined, lines: Box[], lineHeight: number): Band[] {
  const { mask, specks, glyph } = specksOf(page);
  const bands = rowBands(mask);
  if (gutter === undefined) return withFullStops(bands, specks, glyph);
  const crossing = lines.filter((l) => l.x < gutter && l.x + l.width > gutter && !besideColumns(l, lines, gutter));
  const cutBands = bands.flatMap((band) => {
    const held = (l: Box) => l.y + l.height / 2 > band.y0 && l.y + l.height / 2 < band.y1;
    const cut = crossing.some(held) ? undefined : blankCut(mask, band, gutter, lineHeight);
    if (cut === undefined) return [band];
    return [...regionBands(mask, { ...band, x1: cut.x0 }), ...regionBands(mask, { ...band, x0: cut.x1 })];
  });
  return withFullStops(cutBands, specks, glyph);
}

/**
 * Whether a text line across the gutter shares its rows with a line of a column (half the column
 * line's height or more): no title or display across the page, which stands alone in its rows (its
 * equation number aside), but a column's line reaching into the gutter (an overfull line and its
 * mark) or two columns' lines the text model's detector ran into one box, whose band the gutter
 * still cuts.
 */
function besideColumns(line: Box, lines: Box[], gutter: number): boolean {
  const beside = (l: Box) => Math.min(l.y + l.height, line.y + line.height) - Math.max(l.y, line.y) >= l.height / 2;
  return lines.some((l) => (l.x + l.width <= gutter || l.x >= gutter) && beside(l));
}

/**
 * The run of blank pixel columns through `band`'s rows nearest the gutter (x1 exclusive), when one
 * GUTTER_BLANK_LINE_HEIGHTS wide lies within GUTTER_REACH_LINE_HEIGHTS of it; undefined when ink
 * crosses there. The few rows of ink a run may hold (`columnBlank`) belong to neither column.
 */
function blankCut(mask: InkMask, band: Band, gutter: number, lineHeight: number): { x0: number; x1: number } | undefined {
  const reach = GUTTER_REACH_LINE_HEIGHTS * lineHeight;
  const [from, to] = [Math.max(band.x0, Math.floor(gutter - reach)), Math.min(band.x1, Math.ceil(gutter + reach))];
  let best: { x0: number; x1: number; off: number } | undefined;
  let start = -1;
  for (let x = from; x <= to; x++) {
    const blank = x < to && columnBlank(mask, band, x, lineHeight);
    if (blank && start < 0) start = x;
    if (blank || start < 0) continue;
    const off = Math.abs((start + x) / 2 - gutter);
    if (x - start >= GUTTER_BLANK_LINE_HEIGHTS * lineHeight && (!best || off < best.off)) best = { x0: start, x1: x, off };
    start = -1;
  }
  return best && { x0: best.x0, x1: best.x1 };
}

/**
 * Whether no ink crosses the band at `x`, or, in a band CROSSED_BAND_LINE_HEIGHTS tall or more, only
 * ink within CROSSING_INK_LINE_HEIGHTS of rows: a draft's overfull-box mark at the end of one line,
 * a word's tail reaching into the gutter, would otherwise keep whole a band that runs down both
 * columns, every line of each joined to the other column's lines beside it. A table's rules across
 * the page stand further apart; a figure or a display across the page crosses it in more rows.
 */
function columnBlank(mask: InkMask, band: Band, x: number, lineHeight: number): boolean {
  let [first, last] = [-1, -1];
  for (let y = band.y0; y < band.y1; y++) {
    if (!mask.data[y * mask.width + x]) continue;
    if (first < 0) first = y;
    last = y;
  }
  if (first < 0) return true;
  return band.y1 - band.y0 >= CROSSED_BAND_LINE_HEIGHTS * lineHeight && last - first < CROSSING_INK_LINE_HEIGHTS * lineHeight;
}
/** A band this many line heights tall may be cut at a gutter that ink crosses in a few rows… */
export const CROSSED_BAND_LINE_HEIGHTS = 3;
/** …within this many line heights. */
export const CROSSING_INK_LINE_HEIGHTS = 1.2;

/** The rows of ink of one region of the mask, in page coordinates. */
function regionBands(mask: InkMask, region: Band): Band[] {
  const [width, height] = [region.x1 - region.x0, region.y1 - region.y0];
  if (width <= 0 || height <= 0) return [];
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const from = (region.y0 + y) * mask.width + region.x0;
    data.set(mask.data.subarray(from, from + width), y * width);
  }
  return rowBands({ data, width, height }).map((b) => ({ y0: b.y0 + region.y0, y1: b.y1 + region.y0, x0: b.x0 + region.x0, x1: b.x1 + region.x0 }));
}
