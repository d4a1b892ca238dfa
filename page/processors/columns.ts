import type { PageLine } from '../model.js';
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
 * leave one vertical gutter free (`imageGutter`) and each side holds at least MIN_COLUMN_LINES
 * lines of prose (a median of more than MIN_PROSE_WORDS words: a table's cells hold fewer, and a
 * table keeps its rows), the lines are read column by column (`columnSections`).
 */

type Box = PageLine['box'];

export const MIN_COLUMN_LINES = 3;
export const MIN_PROSE_WORDS = 4;

const spanOf = (box: Box): LineSpan => ({ x0: box.x, x1: box.x + box.width, top: box.y });

export function columnOrder(lines: PageLine[], upright: (l: PageLine) => Box): PageLine[] {
  const boxes = new Map(lines.map((l) => [l, upright(l)]));
  const gutter = imageGutter([...boxes.values()]);
  if (gutter === undefined) return lines;
  const prose = (side: PageLine[]) => side.length >= MIN_COLUMN_LINES && upperMedian(side.map((l) => wordCount(l.text))) > MIN_PROSE_WORDS;
  const box = (l: PageLine) => boxes.get(l)!;
  if (!prose(lines.filter((l) => box(l).x + box(l).width <= gutter)) || !prose(lines.filter((l) => box(l).x >= gutter))) return lines;
  return columnSections(lines, (l) => spanOf(box(l)), gutter).flatMap((s) => s.lines);
}

/**
 * The middle of the widest vertical strip no narrow line crosses, between the text's left and
 * right edges, when it is at least a line height wide; undefined otherwise. Lines wider than 60 %
 * of the text width (titles, spanning equations) are left out of the search: the boxes of
 * recognised lines carry margins and the page's size says nothing of where its text sits.
 */
function imageGutter(boxes: Box[]): number | undefined {
  if (boxes.length < 2 * MIN_COLUMN_LINES) return undefined;
  const left = Math.min(...boxes.map((b) => b.x));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const narrow = boxes.filter((b) => b.width <= 0.6 * (right - left)).sort((a, b) => a.x - b.x);
  const lineHeight = upperMedian(boxes.map((b) => b.height));
  let reach = left;
  let best: { x: number; width: number } | undefined;
  for (const b of narrow) {
    const gap = b.x - reach;
    if (reach > left && gap >= lineHeight && (!best || gap > best.width)) best = { x: reach + gap / 2, width: gap };
    reach = Math.max(reach, b.x + b.width);
  }
  return best?.x;
}
