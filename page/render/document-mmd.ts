import { type Block, blockLines, type FigureRef, type ListItem } from '../blocks-model.js';
import type { TextLine } from '../glyph-lines.js';
import { tableToMmd } from './tables-mmd.js';

/**
 * A document page's blocks → its MMD, remembering which characters each line produced (for
 * lines.json and lines.mmd.json): headings as `#`, paragraphs with words broken by a hyphen joined,
 * list items one a line with their marker indented by depth, display equations between the
 * display delimiters, tables as a boxed tabular, cropped figures as their own paragraphs where they
 * sit in the reading order. Furniture is left out (lines.json lists it).
 */

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

export interface DocumentRenderOptions {
  display: [string, string];
  /** A text line's MMD: its words, with its inline maths between the inline delimiters. */
  lineMmd: (line: TextLine) => string;
  /** A display equation's LaTeX, without its block's equation number. */
  displayLatex: (line: TextLine) => string;
  /** Write a display block's equation number (its `tag`) as `\tag{n}` after its LaTeX (spec 4.7 include_equation_tags). @default false */
  includeTags?: boolean;
  /** Cropped figures, each written as its own paragraph where it sits in the reading order. */
  figures?: FigureRef[];
}

/** A block, or one item of a list: what is written as one paragraph of MMD. */
interface Part {
  block: Block<TextLine>;
  lines: TextLine[];
  item?: ListItem<TextLine>;
}

const TYPE_OF: Record<Exclude<Block<TextLine>['kind'], 'furniture' | 'figure'>, LineType> = {
  heading: 'section_header',
  paragraph: 'text',
  list: 'list_item',
  display_math: 'math',
  table: 'table',
  code: 'text',
};

/** A line ending in letter + hyphen whose successor starts in lower case: the hyphen only broke the word. */
const HYPHEN_END = /\p{L}-$/u;

export function renderDocumentPage(blocks: Block<TextLine>[], opts: DocumentRenderOptions): RenderedPage {
  let mmd = '';
  const rendered: RenderedLine[] = [];
  const emit = (line: TextLine, type: LineType, text: string) => {
    rendered.push({ line, type, mmd: text, start: mmd.length, end: mmd.length + text.length });
    mmd += text;
  };
  const shown: string[] = [];
  const parts = blocks.flatMap((block): Part[] => {
    if (block.kind === 'list') return block.items.map((item) => ({ block, lines: item.lines, item }));
    if (block.kind === 'furniture' || block.kind === 'figure') return [];
    return [{ block, lines: blockLines(block) }];
  });
  const figuresBefore = placeFigures(parts, opts.figures ?? []);
  const emitFigures = (figures: FigureRef[]) => {
    for (const f of figures) {
      if (mmd) mmd += '\n\n';
      emit(figureLine(f), 'image', f.mmd);
      shown.push(f.name);
    }
  };
  parts.forEach(({ block, lines, item }, b) => {
    const figures = figuresBefore[b]!;
    emitFigures(figures);
    // The items of one list stand on adjacent lines.
    if (mmd) mmd += b > 0 && !figures.length && item && parts[b - 1]!.block === block ? '\n' : '\n\n';
    if (block.kind === 'furniture' || block.kind === 'figure') return;
    const type = TYPE_OF[block.kind];
    if (block.kind === 'table' && block.whole) {
      emit(block.whole, type, tableToMmd(block.grid, opts.lineMmd));
      return;
    }
    if (block.kind === 'display_math') {
      const latex = opts.displayLatex(lines[0]!);
      const tagged = opts.includeTags && block.tag ? `${latex} \\tag{${block.tag}}` : latex;
      emit(lines[0]!, type, `${opts.display[0]}\n${tagged}\n${opts.display[1]}`);
      return;
    }
    let prefix = '';
    if (block.kind === 'heading') prefix = `${'#'.repeat(block.level)} `;
    if (item) prefix = `${'  '.repeat(item.depth)}${item.marker}`;
    lines.forEach((line, i) => {
      let text = opts.lineMmd(i === 0 && item ? stripMarker(line) : line);
      const next = lines[i + 1];
      const joinsWord = next !== undefined && HYPHEN_END.test(text) && /^\p{Ll}/u.test(next.text);
      if (joinsWord) text = text.slice(0, -1);
      emit(line, type, (i === 0 ? prefix : '') + text);
      if (next && !joinsWord) mmd += ' ';
    });
  });
  emitFigures(figuresBefore[parts.length]!);
  const furniture = blocks.flatMap((b) => (b.kind === 'furniture' ? b.lines : []));
  return { mmd, lines: rendered, pageInfo: furniture, figures: shown };
}

/**
 * Which part each figure is written before (index parts.length: after the last): the first
 * part, in reading order, that starts below the figure's top in the figure's column — so a
 * caption under a figure follows it, and a figure in the left column does not land in the right.
 */
function placeFigures(parts: Part[], figures: FigureRef[]): FigureRef[][] {
  const before: FigureRef[][] = Array.from({ length: parts.length + 1 }, () => []);
  for (const f of figures) {
    const at = parts.findIndex(({ lines }) => {
      const first = lines[0]!;
      const overlaps = Math.min(...lines.map((l) => l.x0)) < f.box.x1 && Math.max(...lines.map((l) => l.x1)) > f.box.x0;
      return overlaps && first.top >= f.box.y0;
    });
    before[at < 0 ? parts.length : at]!.push(f);
  }
  return before;
}

/** A figure as a line of lines.json: its region, no text. */
export function figureLine(f: FigureRef): TextLine {
  return { glyphs: [], x0: f.box.x0, x1: f.box.x1, top: f.box.y0, bottom: f.box.y1, base: f.box.y1, size: 0, bold: false, text: '' };
}

/** The line without its bullet or number and the space after it. */
function stripMarker(line: TextLine): TextLine {
  const space = line.glyphs.findIndex((g) => g.ch === ' ');
  const glyphs = line.glyphs.slice(space + 1);
  return { ...line, glyphs, text: glyphs.map((g) => g.ch).join('') };
}
