import type { Block as PageBlock } from '../blocks-model.js';
import type { TextLine } from '../glyph-lines.js';
import { pageFurniture, RunningLines } from './furniture.js';
import { FONT_SIZE_RATIOS, levelBySize, sectionNumberLevel } from './headings.js';
import { dominantSize } from './line-measures.js';
import { goesOnItem, ListLevels, listMarker, sameList } from './lists.js';
import { readingOrder } from './text-layer-columns.js';
import { continuesListing, isCodeLine, joinRow, sameRow, typewriterPitch } from './text-layer-code.js';
import { isTableLine } from './text-layer-tables.js';

/**
 * Lines of one born-digital page → the page model's blocks (page/blocks-model.ts): headings,
 * paragraphs, lists, code (text-layer-code.ts), display maths, tables, and page furniture set aside
 * (its own block, first).
 * Tables come found (text-layer-tables.ts); what recognition found in the lines (display
 * equations, lines all maths: the document worker's worker/document/pipeline/) comes in as
 * `TextLayerReading`.
 */

export { RunningLines };

/** A born-digital page's blocks hold its glyph lines. */
export type Block = PageBlock<TextLine>;

/** What the document worker read of a page's glyph lines before their layout. */
export interface TextLayerReading {
  /**
   * The display equation a line stands for, if it stands for one: its equation number, and
   * whether it is a display wherever it stands (2-D, or numbered); else only where it is centred.
   */
  display(line: TextLine): { tag?: string; standsAlone: boolean } | undefined;
  /** The line is all maths: centred, it is a display. */
  isMathOnly(line: TextLine): boolean;
  /** A list's bullet character. */
  isBullet(ch: string): boolean;
}

/** "Figure 2:", "Fig. 3.", "Table IV." — a number and a separator, unlike body text that mentions a figure ("Figure 3 shows"). */
export const CAPTION = /^(fig(ure)?|table|tab|chart|scheme|plate|diagram)\.?\s*([0-9]+|[IVX]+)(\.[0-9]+)*\s*[:.|\u2013\u2014-]/i;

/** Lines whose ink is this close (in ems) are one paragraph's even when their baselines are far apart. */
const TOUCHING_EM = 0.35;
/** A footnote is set at most this share of the body size (8 pt over 10, 9 over 11, 10 over 12); a small-caps section head is larger. */
const FOOTNOTE_RATIO = 0.85;
const SENTENCE_END = /[.!?:]["'\u201d\u2019)]?$/u;

export function bodySizeOf(lines: TextLine[]): number {
  return dominantSize(lines.flatMap((l) => l.glyphs.filter((g) => g.ch !== ' '))) || 10;
}

/**
 * A line's heading level: by its font size against the body's (headings.ts FONT_SIZE_RATIOS), a
 * short bold line on a page whose body is not bold, or a section number on a line standing
 * `apart` from the lines around it (headings.ts `sectionNumberLevel`, as on a scanned page).
 */
function headingLevel(line: TextLine, body: number, next: TextLine | undefined, bodyBold: boolean, apart: boolean, before?: TextLine): number | undefined {
  const ratio = line.size / body;
  const bySize = levelBySize(ratio, FONT_SIZE_RATIOS);
  if (bySize !== undefined) return bySize;
  const short = line.text.split(' ').length <= 10 && !/[.,;:]$/.test(line.text);
  if (!bodyBold && line.bold && ratio > 0.95 && short && !(next && next.bold)) return 3;
  // A footnote starts with its mark in a smaller size.
  return apart && ratio > FOOTNOTE_RATIO ? sectionNumberLevel(line.text, before?.text, next?.text) : undefined;
}

function quantile(xs: number[], q: number): number | undefined {
  if (!xs.length) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length * q)];
}

/** Lays out one page. `width`/`height` are the viewport's, in points. */
export function layoutPage(
  all: TextLine[],
  width: number,
  height: number,
  reading: TextLayerReading,
  keepPageInfo: boolean,
  running = new RunningLines(),
): Block[] {
  const body = bodySizeOf(all);
  const pageInfo = pageFurniture(all, height, body, running, keepPageInfo);
  const lines = all.filter((l) => !pageInfo.includes(l));
  const bodyBold = lines.filter((l) => l.bold).length > lines.length / 2;
  const sections = readingOrder(lines, width);
  const deltas: number[] = [];
  for (const s of sections)
    s.lines.forEach((l, i) => {
      const p = s.lines[i - 1];
      if (p && !s.columnStarts.has(i) && Math.abs(p.size - l.size) < 0.5 && l.base > p.base) deltas.push(l.base - p.base);
    });
  // The lower quartile: where paragraphs are set apart by space (word processors), short
  // paragraphs can make most steps on a page paragraph gaps, and a median would take one for the leading.
  const leading = quantile(deltas, 0.25);
  const levels = new ListLevels();
  const blocks: Block[] = pageInfo.length ? [{ kind: 'furniture', lines: pageInfo }] : [];
  for (const section of sections) {
    const twoColumn = sections.some((s) => s.columnStarts.size > 0);
    let [colLeft, colRight, textRight] = [0, width, width];
    let prev: TextLine | undefined;
    section.lines.forEach((line, i) => {
      const newColumn = section.columnStarts.has(i);
      if (i === 0 || newColumn) {
        [colLeft, colRight] = columnBounds(section.lines, section.columnStarts, i, twoColumn ? undefined : width);
        textRight = columnBounds(section.lines, section.columnStarts, i, undefined)[1];
      }
      const next = section.lines[i + 1];
      const last = blocks[blocks.length - 1];
      const marker = listMarker(line.text, reading.isBullet(line.glyphs[0]?.ch ?? '') && line.glyphs[1]?.ch === ' ');
      // Lines of one paragraph: a leading apart, or closer in ink (a tall inline formula spreads its lines).
      const follows = (a: TextLine, b: TextLine) => b.base - a.base <= Math.max(leading ?? 0, b.size) * 1.3 || b.top - a.bottom <= TOUCHING_EM * b.size;
      const close = prev !== undefined && !newColumn && follows(prev, line) && Math.abs(line.size - prev.size) < 0.15 * line.size;
      const apart =
        (prev === undefined || newColumn || !follows(prev, line)) && (next === undefined || section.columnStarts.has(i + 1) || !follows(line, next));
      const level = headingLevel(line, body, next, bodyBold, apart, prev);
      const carries = newColumn && prev !== undefined && /[a-z,-]$/.test(prev.text);
      const centred =
        Math.abs((line.x0 + line.x1) / 2 - (colLeft + colRight) / 2) < 0.08 * (colRight - colLeft) && line.x1 - line.x0 < 0.8 * (colRight - colLeft);
      // A display gathered from stacked lines (fractions, limits, tall delimiters) or numbered needs no centring test.
      const display = reading.display(line);
      const code = last?.kind === 'code' ? last : undefined;
      const listing = level === undefined && code && prev === code.lines.at(-1) && !newColumn ? prev : undefined;
      if (code && listing && sameRow(listing, line)) {
        prev = code.lines[code.lines.length - 1] = joinRow(listing, line);
        return;
      } else if (code && listing && continuesListing(listing, line)) {
        code.lines.push(line);
      } else if (level === undefined && isCodeLine(line) && !(close && (last?.kind === 'paragraph' || last?.kind === 'list'))) {
        blocks.push({ kind: 'code', lines: [line], pitch: typewriterPitch([line]) });
      } else if (isTableLine(line)) {
        blocks.push({ kind: 'table', grid: line.table, whole: line });
      } else if (display && (centred || display.standsAlone)) {
        blocks.push({ kind: 'display_math', lines: [line], ...(display.tag ? { tag: display.tag } : {}) });
      } else if (centred && reading.isMathOnly(line)) {
        blocks.push({ kind: 'display_math', lines: [line] });
      } else if (level !== undefined) {
        if (last?.kind === 'heading' && last.level === level && close) last.lines.push(line);
        else blocks.push({ kind: 'heading', level, lines: [line] });
      } else if (marker) {
        const item = { marker, depth: levels.depth(line.x0, line.size, last?.kind === 'list'), lines: [line] };
        if (last?.kind === 'list' && sameList(last.items.at(-1)!, item)) last.items.push(item);
        else blocks.push({ kind: 'list', items: [item] });
      } else if (last?.kind === 'list' && close && goesOnItem(line.x0, last.items.at(-1)!.lines[0]!.x0, line.size)) {
        last.items.at(-1)!.lines.push(line);
      } else if (
        last?.kind === 'paragraph' &&
        ((close && !indented(line, prev!, colLeft) && !captionEnds(last, line) && !endedShort(prev!, line, colLeft, textRight)) || carries)
      ) {
        last.lines.push(line);
      } else {
        blocks.push({ kind: 'paragraph', lines: [line] });
      }
      prev = line;
    });
  }
  return blocks;
}

/** Justified lines end within this many points of each other: the text block's right edge. */
const JUSTIFIED_TOLERANCE_PT = 0.5;
/** Lines that must share a right edge for the page to be read as justified. */
const JUSTIFIED_LINES = 3;

/**
 * Left and right edges of the column starting at line `from`. A single-column page's right edge
 * is where its justified lines end (a twoside book or a wide left margin sets the text block off
 * centre); with ragged lines the page is taken as centred (symmetric margins), so that centred
 * display maths is recognised all the same.
 */
function columnBounds(lines: TextLine[], starts: Set<number>, from: number, pageWidth: number | undefined): [number, number] {
  let to = from + 1;
  while (to < lines.length && !starts.has(to)) to++;
  const col = lines.slice(from, to);
  const left = Math.min(...col.map((l) => l.x0));
  if (pageWidth === undefined) return [left, Math.max(...col.map((l) => l.x1))];
  const right = Math.max(...col.map((l) => l.x1));
  // Where justified lines end, unless that is well inside the page's text (table cells ending together).
  const justified = justifiedEdge(col);
  if (justified !== undefined && justified > left && right - justified <= 0.1 * (right - left)) return [left, justified];
  return [Math.min(left, pageWidth / 2), pageWidth - Math.min(left, pageWidth / 2)];
}

/** The rightmost x where at least JUSTIFIED_LINES lines end together, if any. */
function justifiedEdge(lines: TextLine[]): number | undefined {
  const ends = lines.map((l) => l.x1).sort((a, b) => b - a);
  for (let i = 0; i + JUSTIFIED_LINES - 1 < ends.length; i++) {
    if (ends[i]! - ends[i + JUSTIFIED_LINES - 1]! <= JUSTIFIED_TOLERANCE_PT) return ends[i];
  }
  return undefined;
}

/**
 * A figure or table caption is its own paragraph: it starts one, and the text after it starts
 * another once the gap is wider than the caption's own line spacing (or 1.5 lines after a
 * one-line caption) — pages with a figure have few lines, so the page's leading is a poor guide.
 */
function captionEnds(block: { lines: TextLine[] }, line: TextLine): boolean {
  if (CAPTION.test(line.text)) return true;
  const lines = block.lines;
  if (!CAPTION.test(lines[0]!.text)) return false;
  const prev = lines[lines.length - 1]!;
  const spacing = lines.length > 1 ? (prev.base - lines[0]!.base) / (lines.length - 1) : 1.2 * prev.size;
  return line.base - prev.base > 1.25 * spacing;
}

/**
 * The previous line ended its paragraph: a left-aligned line ending a sentence that stops short of
 * the text's right edge by more than this line's first word (and a space), which would have fitted there.
 */
function endedShort(prev: TextLine, line: TextLine, colLeft: number, textRight: number): boolean {
  // Centred or indented lines (titles, verse) end where they end; a line without a full stop goes on.
  if (prev.x0 > colLeft + 2 * prev.size || !SENTENCE_END.test(prev.text)) return false;
  const space = line.glyphs.findIndex((g) => g.ch === ' ');
  const word = space < 0 ? line.x1 - line.x0 : line.glyphs[space]!.x - line.x0;
  return textRight - prev.x1 > word + 0.5 * line.size;
}

/** A first-line indent: this line starts well right of the column edge while the previous did not. */
function indented(line: TextLine, prev: TextLine, colLeft: number): boolean {
  return line.x0 > colLeft + 0.8 * line.size && prev.x0 <= colLeft + 0.3 * line.size;
}
