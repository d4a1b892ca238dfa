import type { PageLine } from '../model.js';
import { upperMedian, wordCount } from './line-measures.js';

/**
 * Two columns of prose in an image. The text engine orders lines row by row across the whole
 * image (worker/engine/text/order.ts), which interleaves the lines of two columns. When the lines
 * leave one vertical gutter free — no line narrower than most of the text width crosses it — and
 * each side holds at least MIN_COLUMN_LINES lines of prose (a median of more than
 * MIN_PROSE_WORDS words: a table's cells hold fewer, and a table keeps its rows), the lines are
 * read column by column. Lines that span the gutter (a title, a display equation across the
 * page) stay where they are and split the page into zones, each read column by column.
 */

type Box = PageLine['box'];

export const MIN_COLUMN_LINES = 3;
export const MIN_PROSE_WORDS = 4;

export function columnOrder(lines: PageLine[], upright: (l: PageLine) => Box): PageLine[] {
  const items = lines.map((line) => ({ line, box: upright(line) }));
  const gutter = findGutter(items.map((i) => i.box));
  if (gutter === null) return lines;
  const left = items.filter((i) => i.box.x + i.box.width <= gutter);
  const right = items.filter((i) => i.box.x >= gutter);
  const prose = (side: typeof items) => side.length >= MIN_COLUMN_LINES && upperMedian(side.map((i) => wordCount(i.line.text))) > MIN_PROSE_WORDS;
  if (!prose(left) || !prose(right)) return lines;
  const out: PageLine[] = [];
  let zone: typeof items = [];
  const flush = () => {
    const byY = (a: (typeof items)[number], b: (typeof items)[number]) => a.box.y - b.box.y;
    out.push(
      ...zone
        .filter((i) => i.box.x < gutter)
        .sort(byY)
        .map((i) => i.line),
      ...zone
        .filter((i) => i.box.x >= gutter)
        .sort(byY)
        .map((i) => i.line),
    );
    zone = [];
  };
  for (const item of [...items].sort((a, b) => a.box.y - b.box.y)) {
    const spans = item.box.x < gutter && item.box.x + item.box.width > gutter;
    if (!spans) {
      zone.push(item);
      continue;
    }
    flush();
    out.push(item.line);
  }
  flush();
  return out;
}

/**
 * The middle of the widest vertical strip no narrow line crosses, between the text's left and
 * right edges, when it is at least a line height wide; null otherwise. Lines wider than 60 % of
 * the text width (titles, spanning equations) are left out of the search.
 */
function findGutter(boxes: Box[]): number | null {
  if (boxes.length < 2 * MIN_COLUMN_LINES) return null;
  const left = Math.min(...boxes.map((b) => b.x));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const narrow = boxes.filter((b) => b.width <= 0.6 * (right - left)).sort((a, b) => a.x - b.x);
  const lineHeight = upperMedian(boxes.map((b) => b.height));
  let reach = left;
  let best: { x: number; width: number } | null = null;
  for (const b of narrow) {
    const gap = b.x - reach;
    if (reach > left && gap >= lineHeight && (!best || gap > best.width)) best = { x: reach + gap / 2, width: gap };
    reach = Math.max(reach, b.x + b.width);
  }
  return best?.x ?? null;
}
