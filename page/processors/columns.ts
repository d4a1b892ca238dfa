import type { PageLine } from '../model.js';
import { isEquationNumber } from '../equation-number.js';
import { sharesRows } from '../geometry.js';
import { upperMedian, wordCount } from './line-measures.js';

/**
 * Reading order and columns, one processor for every source: lines that cross the gutter (a
 * title, a display equation or a figure's caption across the page) cut the page into sections,
 * and each section reads its left column top to bottom, then its right column. Where the gutter
 * is comes from each source's own evidence: a recognised image's from its lines' boxes and words
 * (`imageGutter` here), a born-digital page's from its glyph lines and page width
 * (text-layer-columns.ts `findGutter`). Three or more columns are not detected.
 */

/** What reading order needs of a line: where it starts and ends across the page and its top, in the page's unit. */
export interface LineSpan {
  x0: number;
  x1: number;
  top: number;
}

export interface Section<L> {
  /** Lines in reading order; a column break inside is marked by `columnStarts`. */
  lines: L[];
  /** Indexes into `lines` where a new column begins (the right column of a section). */
  columnStarts: Set<number>;
}

/**
 * The page's lines in sections. Without a gutter the lines stay in the order given (the source's
 * row order) as one section; with one, they are taken top to bottom (lines with the same top
 * keep the order given): a line ending left of the gutter is in the left column, one starting
 * right of it in the right column, and one crossing it is a section of its own.
 */
export function columnSections<L>(lines: L[], span: (l: L) => LineSpan, gutter: number | undefined): Section<L>[] {
  if (gutter === undefined) return [{ lines: [...lines], columnStarts: new Set() }];
  const spans = new Map(lines.map((l) => [l, span(l)]));
  const byTop = [...lines].sort((a, b) => spans.get(a)!.top - spans.get(b)!.top);
  const sections: Section<L>[] = [];
  let left: L[] = [];
  let right: L[] = [];
  const flush = () => {
    if (!left.length && !right.length) return;
    sections.push({ lines: [...left, ...right], columnStarts: left.length && right.length ? new Set([left.length]) : new Set() });
    left = [];
    right = [];
  };
  for (const line of byTop) {
    const { x0, x1 } = spans.get(line)!;
    if (x1 <= gutter) left.push(line);
    else if (x0 >= gutter) right.push(line);
    else {
      flush();
      sections.push({ lines: [line], columnStarts: new Set() });
    }
  }
  flush();
  return sections;
}

/**
 * Two columns of prose in an image. The text engine orders lines row by row across the whole
 * image (worker/engine/text/order.ts), which interleaves the lines of two columns. When the lines
 * leave a vertical gutter between two columns of prose (`proseGutter`), they are read column by
 * column (`columnSections`).
 */

type Box = PageLine['box'];

export const MIN_COLUMN_LINES = 3;
export const MIN_PROSE_WORDS = 4;

const spanOf = (box: Box): LineSpan => ({ x0: box.x, x1: box.x + box.width, top: box.y });

export function columnOrder(lines: PageLine[], upright: (l: PageLine) => Box): PageLine[] {
  const box = (l: PageLine) => boxes.get(l)!;
  const boxes = new Map(lines.map((l) => [l, upright(l)]));
  const gutter = proseGutter(lines.map((l) => ({ box: box(l), text: l.text })));
  if (gutter === undefined) return lines;
  return columnSections(lines, (l) => spanOf(box(l)), gutter).flatMap((s) => s.lines);
}

/**
 * The x of the gutter between two columns of prose (`imageGutter`), or undefined: what the page's
 * reading order (`columnOrder`) and the maths pass's rows of ink (worker/inference/column-bands.ts)
 * both go by. Each side must hold MIN_COLUMN_LINES lines of prose (more than MIN_PROSE_WORDS
 * words), at least PROSE_SHARE of its lines (a column of displays between its paragraphs is
 * mostly short lines; a table's cells hold fewer words, and a table keeps its rows), and the
 * right side's lines must share a left edge (a column's).
 */
export function proseGutter(lines: { box: Box; text: string }[]): number | undefined {
  const gutter = imageGutter(lines);
  if (gutter === undefined) return undefined;
  const prose = (side: { text: string }[]) => side.filter(isProse).length >= PROSE_SHARE * side.length;
  const left = lines.filter((l) => l.box.x + l.box.width <= gutter);
  const right = lines.filter((l) => l.box.x >= gutter);
  return prose(left) && prose(right) && sharesLeftEdge(right.map((l) => l.box)) ? gutter : undefined;
}

/** The least share of a column's lines that are prose. */
export const PROSE_SHARE = 0.25;

const isProse = (l: { text: string }) => wordCount(l.text) > MIN_PROSE_WORDS;

/** A page's running head, title or a display across both columns may cross its gutter: up to this share of its narrow lines, and at least MIN_CROSSING. */
const CROSSING_SHARE = 0.1;
const MIN_CROSSING = 2;
/**
 * The narrowest gutter, in line heights: LaTeX's two-column classes leave 10–12 pt, and the text
 * model's boxes carry margins, so the boxes of two columns' lines stand a third of a line apart or less.
 */
export const MIN_GUTTER_LINE_HEIGHTS = 0.25;

/**
 * The middle of a vertical strip MIN_GUTTER_LINE_HEIGHTS line heights wide, between the text's
 * left and right edges, that the fewest narrow lines cross, at most max(MIN_CROSSING,
 * CROSSING_SHARE of them) (a running head, a title, an overfull line may cross a gutter), with
 * MIN_COLUMN_LINES narrow lines of prose wholly on each side (margin line numbers are no column);
 * of equals, the one with the most such lines on its poorer side, and the middle of a run of such
 * strips. Undefined when there is none. Lines wider than 60 % of the text width (titles, spanning
 * equations) are left out of the search: the boxes of recognised lines carry margins and the
 * page's size says nothing of where its text sits.
 */
function imageGutter(lines: { box: Box; text: string }[]): number | undefined {
  if (lines.length < 2 * MIN_COLUMN_LINES) return undefined;
  const boxes = lines.map((l) => l.box);
  const left = Math.min(...boxes.map((b) => b.x));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const narrow = boxes.filter((b) => b.width <= 0.6 * (right - left));
  const prose = lines.filter((l) => isProse(l) && l.box.width <= 0.6 * (right - left)).map((l) => l.box);
  const half = (MIN_GUTTER_LINE_HEIGHTS * upperMedian(boxes.map((b) => b.height))) / 2;
  const allowed = Math.max(MIN_CROSSING, CROSSING_SHARE * narrow.length);
  // The lines sharing each narrow line's rows (an equation number beside a display is none).
  const numbers = new Set(lines.filter((l) => isEquationNumber(l.text)).map((l) => l.box));
  const beside = new Map(narrow.map((b) => [b, boxes.filter((o) => o !== b && !numbers.has(o) && sharesRows(o, b))]));
  let best: { x0: number; x1: number; score: number } | undefined;
  for (let x = Math.ceil(left + half); x <= right - half; x++) {
    // A line alone in its rows across the strip (a heading, a display across a page whose other part is in two columns) sits between the columns' stretches, not in them.
    const apart = (o: Box) => o.x + o.width <= x - half || o.x >= x + half;
    const crossing = narrow.filter((b) => b.x < x + half && b.x + b.width > x - half && beside.get(b)!.some(apart)).length;
    const before = prose.filter((b) => b.x + b.width <= x - half).length;
    const after = prose.filter((b) => b.x >= x + half).length;
    if (crossing > allowed || Math.min(before, after) < MIN_COLUMN_LINES) continue;
    const score = -crossing * boxes.length + Math.min(before, after);
    if (best?.score === score && best.x1 === x - 1) best.x1 = x;
    else if (!best || score > best.score) best = { x0: x, x1: x, score };
  }
  return best && (best.x0 + best.x1) / 2;
}

/** Whether MIN_COLUMN_LINES of the boxes start at one left edge (within half a line height): a column does, scattered fragments right of a page's middle do not. */
function sharesLeftEdge(boxes: Box[]): boolean {
  const tolerance = upperMedian(boxes.map((b) => b.height)) / 2;
  return boxes.some((a) => boxes.filter((b) => Math.abs(b.x - a.x) <= tolerance).length >= MIN_COLUMN_LINES);
}
