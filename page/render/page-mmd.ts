import { type Block, blockLines, BULLET_MARKER, type FigureRef, type ListItem } from '../blocks-model.js';
import { displayMath, tagged } from './mmd.js';
import type { RenderOptions } from './options.js';
import { tableToMmd } from './tables-mmd.js';

/**
 * The one MMD renderer of a page's blocks (4.2 output rules), whatever the page came from: an
 * image sent to /v3/text, a scanned page, a born-digital page. It writes headings as `#`,
 * paragraphs, display equations between the display delimiters (with `\tag{n}` from the block's
 * equation number under include_equation_tags), headings numbered as the document asks
 * (section-numbers.ts), lists as itemize environments or, with
 * disable_itemize, one item a line with its marker indented by depth, code as a listing
 * environment or, with disable_lstlisting, a fenced block, tables as a boxed tabular, and figures
 * as their own paragraphs where they sit in the reading order. Furniture is left out (lines.json
 * lists it). It remembers which characters each line produced (for lines.json and lines.mmd.json).
 *
 * What differs between sources is how their lines read (`LineReader`): a line's MMD, a maths
 * line's LaTeX, where a list item's marker ends, and whether lines are kept as read.
 */

export interface LineReader<L> {
  /**
   * Lines read from pixels are kept as read: a paragraph's lines stand one an MMD line and a
   * hyphen at a line's end stays. A text layer's lines are joined into paragraphs, and a word a
   * hyphen broke across two lines is joined.
   */
  keepsBreaks: boolean;
  /** A line's plain text (a word broken by a hyphen is joined when the next line's text starts in lower case). */
  text(line: L): string;
  /** A line's MMD: its words with its inline maths between the inline delimiters (a maths line of an image: its display). */
  mmd(line: L): string;
  /** Whether the line, standing in a paragraph, is a display equation (lines.json type `math`). */
  isDisplay(line: L): boolean;
  /** The LaTeX of a display block's line, without the block's equation number. */
  displayLatex(line: L): string;
  /** A line's MMD inside a heading. */
  headingMmd(line: L): string;
  /** The first line of a list item: the marker as printed, and the line's MMD after it. */
  itemStart(line: L, item: ListItem<L>): { marker: string; mmd: string };
  /** A code block's lines as written (indents kept, maths left plain: rule 2). */
  codeLines(block: Extract<Block<L>, { kind: 'code' }>): string[];
  /** A line's region in the page's coordinates (figures are placed by it). */
  region(line: L): { x0: number; x1: number; top: number };
}

export type LineType = 'text' | 'section_header' | 'list_item' | 'math' | 'table' | 'page_info' | 'image';

export interface RenderedLine<L> {
  line: L;
  type: LineType;
  /** The MMD this line produced; equals `mmd.slice(start, end)` of the page. */
  mmd: string;
  start: number;
  end: number;
}

/** A cropped figure where the MMD shows it. */
export interface RenderedFigure {
  figure: FigureRef;
  mmd: string;
  start: number;
  end: number;
}

export interface RenderedBlocks<L> {
  mmd: string;
  lines: RenderedLine<L>[];
  /** The figures written, in order. */
  figures: RenderedFigure[];
  /** Furniture lines (left out of the MMD). */
  pageInfo: L[];
}

/** A block, or one item of a list: what is written as one piece of MMD. */
interface Part<L> {
  block: Block<L>;
  lines: L[];
  item?: ListItem<L>;
}

/** A line ending in letter + hyphen whose successor starts in lower case: the hyphen only broke the word. */
const HYPHEN_END = /\p{L}-$/u;

export function renderBlocks<L>(blocks: Block<L>[], reader: LineReader<L>, opts: RenderOptions, figures: FigureRef[] = []): RenderedBlocks<L> {
  let mmd = '';
  const lines: RenderedLine<L>[] = [];
  const shown: RenderedFigure[] = [];
  const emit = (line: L, type: LineType, text: string) => {
    lines.push({ line, type, mmd: text, start: mmd.length, end: mmd.length + text.length });
    mmd += text;
  };
  const writeFigure = (figure: FigureRef) => {
    shown.push({ figure, mmd: figure.mmd, start: mmd.length, end: mmd.length + figure.mmd.length });
    mmd += figure.mmd;
  };
  const parts = blocks.flatMap((block): Part<L>[] => {
    if (block.kind === 'list') return block.items.map((item) => ({ block, lines: item.lines, item }));
    if (block.kind === 'furniture') return [];
    return [{ block, lines: blockLines(block) }];
  });
  const before = placeFigures(parts, figures, reader);
  const writeFigures = (list: FigureRef[]) => {
    for (const figure of list) {
      if (mmd) mmd += '\n\n';
      writeFigure(figure);
    }
  };
  /** Lines joined as the source keeps them (`between` where kept as read), words broken by a hyphen joined. */
  const writeLines = (list: L[], type: LineType, between: string, lineMmd: (l: L, i: number) => string, prefix = '') => {
    list.forEach((line, i) => {
      let out = lineMmd(line, i);
      const next = list[i + 1];
      const joinsWord = !reader.keepsBreaks && next !== undefined && HYPHEN_END.test(out) && /^\p{Ll}/u.test(reader.text(next));
      if (joinsWord) out = out.slice(0, -1);
      emit(line, type === 'text' && reader.isDisplay(line) ? 'math' : type, (i === 0 ? prefix : '') + out);
      if (next && !joinsWord) mmd += reader.keepsBreaks ? between : ' ';
    });
  };
  const itemize = !opts.disable_itemize;
  /** The depth of the innermost itemize environment open (-1: none). */
  let openDepth = -1;
  /** Closes the environments deeper than `depth`: inside a list on the lines before its next item, else after its last. */
  const closeLists = (depth: number) => {
    for (; openDepth > depth; openDepth--) mmd += depth < 0 ? '\n\\end{itemize}' : '\\end{itemize}\n';
  };
  parts.forEach(({ block, lines: partLines, item }, p) => {
    const figuresHere = before[p]!;
    const sameList = p > 0 && !figuresHere.length && item !== undefined && parts[p - 1]!.block === block;
    if (!sameList) closeLists(-1);
    writeFigures(figuresHere);
    // The items of one list stand on adjacent lines.
    if (mmd) mmd += sameList ? '\n' : '\n\n';
    if (block.kind === 'figure') return writeFigure(block.figure);
    if (block.kind === 'table') {
      // A table's line where the source has one, else each cell's.
      const at = mmd.length;
      const cells: RenderedLine<L>[] = [];
      const cellAt = (line: L, start: number, end: number) => cells.push({ line, type: 'table', mmd: '', start: at + start, end: at + end });
      const table = tableToMmd(block.grid, (l) => reader.mmd(l), block.whole ? undefined : cellAt, opts);
      if (block.whole) return emit(block.whole, 'table', table);
      mmd += table;
      lines.push(...cells.map((c) => ({ ...c, mmd: mmd.slice(c.start, c.end) })));
      return;
    }
    if (block.kind === 'display_math') {
      const latex = reader.displayLatex(partLines[0]!);
      return emit(partLines[0]!, 'math', displayMath(tagged(latex, block.tag, opts), opts));
    }
    if (block.kind === 'code') {
      const body = reader.codeLines(block);
      const [open, close] = opts.disable_lstlisting ? ['```', '```'] : ['\\begin{lstlisting}', '\\end{lstlisting}'];
      mmd += `${open}\n`;
      block.lines.forEach((line, i) => {
        if (i > 0) mmd += '\n';
        emit(line, 'text', body[i]!);
      });
      mmd += `\n${close}`;
      return;
    }
    if (block.kind === 'heading') {
      const read = partLines.map((l) => reader.headingMmd(l));
      const numbered = opts.sections ? opts.sections.heading(block.level, read) : read;
      // A section number read as a line of its own and removed leaves nothing of that line to write.
      const kept = partLines.flatMap((line, i) => (numbered[i] || !opts.sections ? [{ line, mmd: numbered[i]! }] : []));
      return writeLines(
        kept.map((k) => k.line),
        'section_header',
        ' ',
        (_, i) => kept[i]!.mmd,
        `${'#'.repeat(block.level)} `,
      );
    }
    if (item) {
      const start = reader.itemStart(partLines[0]!, item);
      let prefix = `${'  '.repeat(item.depth)}${start.marker}`;
      if (itemize) {
        closeLists(item.depth);
        for (; openDepth < item.depth; openDepth++) mmd += '\\begin{itemize}\n';
        // A numbered item keeps its number as the item's label.
        prefix = item.marker === BULLET_MARKER ? '\\item ' : `\\item[${item.marker.trim()}] `;
      }
      return writeLines(partLines, 'list_item', ' ', (l, i) => (i === 0 ? start.mmd : reader.mmd(l)), prefix);
    }
    writeLines(partLines, 'text', '\n', (l) => reader.mmd(l));
  });
  closeLists(-1);
  writeFigures(before[parts.length]!);
  const pageInfo = blocks.flatMap((b) => (b.kind === 'furniture' ? b.lines : []));
  return { mmd, lines, figures: shown, pageInfo };
}

/**
 * Which part each figure is written before (index parts.length: after the last): the first
 * part, in reading order, that starts below the figure's top in the figure's column — so a
 * caption under a figure follows it, and a figure in the left column does not land in the right.
 */
function placeFigures<L>(parts: Part<L>[], figures: FigureRef[], reader: LineReader<L>): FigureRef[][] {
  const before: FigureRef[][] = Array.from({ length: parts.length + 1 }, () => []);
  for (const f of figures) {
    const at = parts.findIndex(({ lines }) => {
      const regions = lines.map((l) => reader.region(l));
      if (!regions.length) return false;
      const overlaps = Math.min(...regions.map((r) => r.x0)) < f.box.x1 && Math.max(...regions.map((r) => r.x1)) > f.box.x0;
      return overlaps && regions[0]!.top >= f.box.y0;
    });
    before[at < 0 ? parts.length : at]!.push(f);
  }
  return before;
}
