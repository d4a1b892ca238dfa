import type { Block, PageLayout } from './blocks.js';
import { lineToLatex, lineToMmd, type LinkArea, type RegionLatex } from './inline.js';
import type { PlacedFigure } from './page-figures.js';
import { isTableLine } from './tables.js';
import { tableToMmd } from '../../../page/render/tables-mmd.js';
import type { TextLine } from './text-layer.js';

/** Blocks → the page's MMD, remembering which characters each line produced. */

export type LineType = 'text' | 'section_header' | 'list_item' | 'math' | 'table' | 'page_info' | 'image';

export interface RenderedLine {
  line: TextLine;
  type: LineType;
  /** The MMD this line produced; equals `mmd.slice(start, end)` of the page. */
  mmd: string;
  start: number;
  end: number;
}

export interface RenderedPage {
  mmd: string;
  lines: RenderedLine[];
  pageInfo: TextLine[];
  /** Names of the figures the MMD shows, in order. */
  figures: string[];
}

export interface RenderOptions {
  inline: [string, string];
  display: [string, string];
  links: LinkArea[];
  /** Inline maths through the 2-D parser (born-digital pages). @defaultValue glyph by glyph */
  inlineLatex?: RegionLatex;
  /** A display equation's LaTeX through the 2-D parser. @defaultValue the line glyph by glyph */
  displayLatex?: (line: TextLine) => string | undefined;
  /** Cropped figures, each written as its own paragraph where it sits in the reading order. */
  figures?: PlacedFigure[];
}

const TYPE_OF: Record<Block['kind'], LineType> = { heading: 'section_header', paragraph: 'text', list_item: 'list_item', display_math: 'math', table: 'table' };

/** A line ending in letter + hyphen whose successor starts in lower case: the hyphen only broke the word. */
const HYPHEN_END = /\p{L}-$/u;

export function renderPage(layout: PageLayout, opts: RenderOptions): RenderedPage {
  let mmd = '';
  const rendered: RenderedLine[] = [];
  const emit = (line: TextLine, type: LineType, text: string) => {
    rendered.push({ line, type, mmd: text, start: mmd.length, end: mmd.length + text.length });
    mmd += text;
  };
  const shown: string[] = [];
  const figuresBefore = placeFigures(layout.blocks, opts.figures ?? []);
  const emitFigures = (figures: PlacedFigure[]) => {
    for (const f of figures) {
      if (mmd) mmd += '\n\n';
      emit(figureLine(f), 'image', f.mmd);
      shown.push(f.name);
    }
  };
  layout.blocks.forEach((block, b) => {
    const figures = figuresBefore[b]!;
    emitFigures(figures);
    if (mmd) mmd += b > 0 && !figures.length && sameList(layout.blocks[b - 1]!, block) ? '\n' : '\n\n';
    const type = TYPE_OF[block.kind];
    const line = block.lines[0]!;
    if (block.kind === 'table' && isTableLine(line)) {
      emit(
        line,
        type,
        tableToMmd(line.table, (cell) => lineToMmd(cell, opts.links, opts.inline, opts.inlineLatex)),
      );
      return;
    }
    if (block.kind === 'display_math') {
      const latex = opts.displayLatex?.(block.lines[0]) || lineToLatex(block.lines[0]);
      emit(block.lines[0], type, `${opts.display[0]}\n${latex}\n${opts.display[1]}`);
      return;
    }
    let prefix = '';
    if (block.kind === 'heading') prefix = `${'#'.repeat(block.level ?? 1)} `;
    if (block.kind === 'list_item') prefix = `${'  '.repeat(block.depth ?? 0)}${block.marker}`;
    block.lines.forEach((line, i) => {
      let text = lineToMmd(i === 0 && block.kind === 'list_item' ? stripMarker(line) : line, opts.links, opts.inline, opts.inlineLatex);
      const next = block.lines[i + 1];
      const joinsWord = next !== undefined && HYPHEN_END.test(text) && /^\p{Ll}/u.test(next.text);
      if (joinsWord) text = text.slice(0, -1);
      emit(line, type, (i === 0 ? prefix : '') + text);
      if (next && !joinsWord) mmd += ' ';
    });
  });
  emitFigures(figuresBefore[layout.blocks.length]!);
  return { mmd, lines: rendered, pageInfo: layout.pageInfo, figures: shown };
}

/**
 * Which block each figure is written before (index blocks.length: after the last): the first
 * block, in reading order, that starts below the figure's top in the figure's column — so a
 * caption under a figure follows it, and a figure in the left column does not land in the right.
 */
function placeFigures(blocks: Block[], figures: PlacedFigure[]): PlacedFigure[][] {
  const before: PlacedFigure[][] = Array.from({ length: blocks.length + 1 }, () => []);
  for (const f of figures) {
    const at = blocks.findIndex((block) => {
      const first = block.lines[0]!;
      const overlaps = Math.min(...block.lines.map((l) => l.x0)) < f.box.x1 && Math.max(...block.lines.map((l) => l.x1)) > f.box.x0;
      return overlaps && first.top >= f.box.y0;
    });
    before[at < 0 ? blocks.length : at]!.push(f);
  }
  return before;
}

/** A figure as a line of lines.json: its region, no text. */
function figureLine(f: PlacedFigure): TextLine {
  return { glyphs: [], x0: f.box.x0, x1: f.box.x1, top: f.box.y0, bottom: f.box.y1, base: f.box.y1, size: 0, bold: false, text: '' };
}

/** Consecutive items of one list (bullets, or numbers) sit on adjacent lines; a change of marker starts a new list. */
function sameList(prev: Block, block: Block): boolean {
  if (prev.kind !== 'list_item' || block.kind !== 'list_item') return false;
  return (prev.marker === '- ') === (block.marker === '- ') || (block.depth ?? 0) !== (prev.depth ?? 0);
}

/** The line without its bullet or number and the space after it. */
function stripMarker(line: TextLine): TextLine {
  const space = line.glyphs.findIndex((g) => g.ch === ' ');
  const glyphs = line.glyphs.slice(space + 1);
  return { ...line, glyphs, text: glyphs.map((g) => g.ch).join('') };
}
