import type { Block, FigureRef } from '../blocks-model.js';
import type { TextLine } from '../glyph-lines.js';
import { listingText } from '../processors/text-layer-code.js';
import type { RenderOptions } from './options.js';
import { type LineReader, type RenderedBlocks, type RenderedLine, renderBlocks } from './page-mmd.js';

/**
 * A born-digital page's blocks (glyph lines) as MMD, by the page renderer (page-mmd.ts), with the
 * MMD each line produced (for lines.json and lines.mmd.json), and its cropped figures where they
 * sit. Lists are itemize environments unless the request sets disable_itemize, as on every page.
 */

export interface RenderedPage {
  mmd: string;
  /** The lines and the figures shown, in the order of the MMD (a figure as its region, figureLine). */
  lines: RenderedLine<TextLine>[];
  pageInfo: TextLine[];
  /** Names of the figures the MMD shows, in order. */
  figures: string[];
}

export interface TextLayerRead {
  /** A text line's MMD: its words, with its inline maths between the inline delimiters. */
  lineMmd: (line: TextLine) => string;
  /** A display equation's LaTeX, without its block's equation number. */
  displayLatex: (line: TextLine) => string;
  /** A heading line's MMD, where it differs from lineMmd's (a section number stays as printed). @defaultValue lineMmd */
  headingMmd?: (line: TextLine) => string;
}

export function renderTextLayerPage(blocks: Block<TextLine>[], read: TextLayerRead, opts: RenderOptions, figures: FigureRef[] = []): RenderedPage {
  return documentPage(renderBlocks(blocks, textLayerLines(read), opts, figures), (l) => l);
}

/**
 * A rendered page as a document's page: its lines as lines.json regions (`inPoints`), the
 * figures shown among them as their regions, in the order of the MMD.
 */
export function documentPage<L>(page: RenderedBlocks<L>, inPoints: (line: L) => TextLine): RenderedPage {
  const lines = page.lines.map((r): RenderedLine<TextLine> => ({ ...r, line: inPoints(r.line) }));
  const shown = page.figures.map(({ figure, ...at }): RenderedLine<TextLine> => ({ line: figureLine(figure), type: 'image', ...at }));
  return {
    mmd: page.mmd,
    lines: [...lines, ...shown].sort((a, b) => a.start - b.start),
    pageInfo: page.pageInfo.map(inPoints),
    figures: page.figures.map((f) => f.figure.name),
  };
}

/** How the page renderer reads glyph lines: joined into paragraphs, a list item's marker up to its first space. */
export function textLayerLines(read: TextLayerRead): LineReader<TextLine> {
  return {
    keepsBreaks: false,
    text: (l) => l.text,
    mmd: read.lineMmd,
    isDisplay: () => false,
    displayLatex: read.displayLatex,
    headingMmd: read.headingMmd ?? read.lineMmd,
    itemStart: (l, item) => ({ marker: item.marker, mmd: read.lineMmd(stripMarker(l)) }),
    codeLines: (block) => listingText(block.lines),
    region: (l) => ({ x0: l.x0, x1: l.x1, top: l.top }),
  };
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
