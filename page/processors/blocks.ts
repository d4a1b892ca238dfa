import type { Block as PageBlock } from '../blocks-model.js';
import type { PageLine } from '../model.js';
import { codeRuns } from './code-lines.js';
import { headingLevel } from './headings.js';
import { upperMedian } from './line-measures.js';
import { goesOnItem, ListLevels, listMarker, sameList } from './lists.js';
import { tableRuns } from './tables.js';

/**
 * The block structure of a recognised image's lines (reading order kept): paragraphs, display
 * equations and bulleted lists, from the lines' upright boxes.
 * - A paragraph ends where the next text line starts after a gap taller than PARAGRAPH_GAP line
 *   heights, starts INDENT line heights or more right of the text line before it (LaTeX's and
 *   most books' first-line indent), or starts above it (reading order moved to the next column).
 * - A list item is a text line starting with a bullet or a number, nested by indent (lists.ts,
 *   with the body line height as unit); the lines after it that start right of its marker,
 *   without a paragraph gap, continue it. Items may stand further apart than lines (LaTeX's
 *   \itemsep): a list goes on across gaps up to LIST_GAP line heights.
 * - A display equation is a maths line; it sits inside its paragraph (one newline either side).
 * - A code block is a run of monospaced lines that reads like code (worker/inference/code-lines.ts).
 * - A table is a run of rows of cells that keep to the same columns (text-tables.ts).
 * - A heading is a short row standing alone, set larger than the body or numbered as a section (headings.ts).
 * - Lines side by side on one row (a section number and its title, a line the text model cut at a
 *   wide space) stay in one block: a line right of a section number, or less than a line height
 *   right of the line before, continues it.
 */

/** The blocks of an image (page/blocks-model.ts): a list item's lines keep its marker as read. */
export type Block = PageBlock<PageLine>;

export const PARAGRAPH_GAP = 0.8;
export const INDENT = 0.7;
export const LIST_GAP = 2;
const BULLET = /^[•·●◦▪‣∙○■□–*-](?=\s|[A-Za-z])/;
const SECTION_NUMBER_ONLY = /^\d{1,2}(?:\.\d{1,2})*\.?$/;
/** A line that is only a section number (`3`, `2.1.`); the maths engine may have read it. */
export const isSectionNumber = (l: PageLine) => SECTION_NUMBER_ONLY.test((l.kind === 'math' ? (l.math?.latex ?? '') : l.text).trim());

export const isBulleted = (l: PageLine) => l.kind !== 'math' && BULLET.test(l.text);
/** A bulleted line's text without its bullet. */
export const withoutBullet = (text: string) => text.replace(BULLET, '').trimStart();

type Upright = PageLine['box'];

export function textBlocks(lines: PageLine[], upright: (l: PageLine) => Upright): Block[] {
  const boxes = lines.map(upright);
  const texts = boxes.filter((_, i) => lines[i]!.kind !== 'math');
  const lineHeight = upperMedian(texts.map((b) => b.height)) || 1;
  const textWidth = Math.max(0, ...texts.map((b) => b.width));
  const gap = (i: number) => boxes[i]!.y - (boxes[i - 1]!.y + boxes[i - 1]!.height);
  /** Line i sits on line i - 1's row, right of it, and continues it (a section number read as maths included). */
  const sameRow = (i: number) => {
    if (i <= 0 || i >= lines.length || lines[i]!.kind === 'math' || (lines[i - 1]!.kind === 'math' && !isSectionNumber(lines[i - 1]!))) return false;
    const [a, b] = [boxes[i - 1]!, boxes[i]!];
    const centres = Math.abs(a.y + a.height / 2 - (b.y + b.height / 2));
    // The text model's boxes carry a margin: a number's box may reach into its title's.
    const space = b.x - (a.x + a.width);
    return centres < 0.35 * Math.max(a.height, b.height) && b.x > a.x + a.width / 2 && (space < lineHeight || isSectionNumber(lines[i - 1]!));
  };
  // The usual space between a paragraph's lines: the lower quartile of the steps (a sparse page has
  // more steps between blocks than inside them), never more than a third of a line.
  const steps = lines
    .flatMap((l, i) => (i > 0 && l.kind !== 'math' && lines[i - 1]!.kind !== 'math' && !sameRow(i) && Math.abs(gap(i)) < lineHeight ? [gap(i)] : []))
    .sort((a, b) => a - b);
  const lineGap = Math.min(steps[Math.floor(steps.length / 4)] ?? 0, lineHeight / 3);
  const rowEnd = (i: number) => {
    let end = i + 1;
    while (sameRow(end)) end++;
    return end;
  };
  const blocks: Block[] = [];
  const code = new Map(codeRuns(lines).map((r) => [r.start, r]));
  const tables = new Map(tableRuns(lines, upright).map((r) => [r.start, r]));
  const levels = new ListLevels();
  let skipTo = 0;
  let previousTextX: number | undefined;
  lines.forEach((line, i) => {
    if (i < skipTo) return;
    const table = tables.get(i);
    if (table) {
      blocks.push({ kind: 'table', grid: table.grid });
      skipTo = table.end;
      previousTextX = undefined;
      return;
    }
    const run = code.get(i);
    if (run) {
      blocks.push({ kind: 'code', lines: lines.slice(run.start, run.end), pitch: run.pitch, fit: run.fit });
      skipTo = run.end;
      previousTextX = undefined;
      return;
    }
    const last = blocks.at(-1);
    if (sameRow(i) && (last?.kind === 'paragraph' || last?.kind === 'heading' || last?.kind === 'list')) {
      (last.kind === 'list' ? last.items.at(-1)!.lines : last.lines).push(line);
      return;
    }
    const spaced = i > 0 && gap(i) > PARAGRAPH_GAP * lineHeight;
    const x = boxes[i]!.x;
    const indented = line.kind !== 'math' && previousTextX !== undefined && x - previousTextX >= INDENT * lineHeight;
    const movedUp = i > 0 && boxes[i]!.y + boxes[i]!.height / 2 < boxes[i - 1]!.y;
    if (line.kind !== 'math') previousTextX = x;
    const end = rowEnd(i);
    const level = isBulleted(line)
      ? undefined
      : headingLevel({
          row: lines.slice(i, end),
          boxes: boxes.slice(i, end),
          above: i > 0 && !movedUp ? { gap: gap(i), height: boxes[i - 1]!.height } : undefined,
          below: end < lines.length ? { gap: gap(end), height: boxes[end]!.height } : undefined,
          before: lines[i - 1]?.text,
          after: lines[end]?.text,
          lineHeight,
          lineGap,
          textLines: texts.length,
          textWidth,
        });
    if (level !== undefined) {
      if (last?.kind === 'heading' && last.level === level && !spaced) last.lines.push(line);
      else blocks.push({ kind: 'heading', level, lines: [line] });
      return;
    }
    const marker = line.kind === 'math' ? undefined : listMarker(line.text, isBulleted(line));
    if (marker) {
      const goesOn = last?.kind === 'list' && gap(i) <= LIST_GAP * lineHeight;
      const item = { marker, depth: levels.depth(x, lineHeight, goesOn), lines: [line] };
      if (goesOn && sameList(last.items.at(-1)!, item)) last.items.push(item);
      else blocks.push({ kind: 'list', items: [item] });
      return;
    }
    if (last?.kind === 'list' && !spaced && line.kind !== 'math' && goesOnItem(x, upright(last.items.at(-1)!.lines[0]!).x, lineHeight)) {
      last.items.at(-1)!.lines.push(line);
      return;
    }
    if (last?.kind === 'paragraph' && !spaced && !indented && !movedUp) last.lines.push(line);
    else blocks.push({ kind: 'paragraph', lines: [line] });
  });
  return blocks;
}

/** What each line is part of, by its block: the type line_data and lines_json report. */
export type LineType = 'text' | 'math' | 'table' | 'code' | 'list_item' | 'section_header' | 'chemistry';

export function lineTypes(blocks: Block[]): Map<PageLine, LineType> {
  const types = new Map<PageLine, LineType>();
  for (const b of blocks) {
    if (b.kind === 'table') for (const row of b.grid.rows) for (const cell of row) if (cell) types.set(cell, 'table');
    if (b.kind === 'code') for (const l of b.lines) types.set(l, 'code');
    if (b.kind === 'heading') for (const l of b.lines) types.set(l, 'section_header');
    if (b.kind === 'list') for (const item of b.items) for (const l of item.lines) types.set(l, 'list_item');
  }
  return types;
}
