import { symbolsInRegion, type PdfPageMath } from '../../engine/math/pdf/index.js';
import type { Box, MathResult, MathSymbol } from '../../engine/math/types.js';
import type { RegionLatex } from './inline.js';
import { isDisplayLine } from './math-regions.js';
import type { TextLine } from './text-layer.js';

/** Born-digital maths → LaTeX: a region's glyphs and rules through the 2-D layout parser. */

export type ParseMath = (symbols: MathSymbol[]) => MathResult;

export interface PageMathLatex {
  inlineLatex: RegionLatex;
  displayLatex: (line: TextLine) => string | undefined;
}

/**
 * The page's readers for inline runs and display equations. A region the parser cannot read (it
 * throws, or returns nothing) gives undefined, and the caller falls back to the glyph-by-glyph map.
 * @param includeTags write a display's equation number as `\tag{n}` (spec 4.7 include_equation_tags)
 */
export function pageMathLatex(math: PdfPageMath, parse: ParseMath, includeTags: boolean): PageMathLatex {
  const read = (box: Box): string | undefined => {
    const symbols = symbolsInRegion(math, box);
    if (symbols.length === 0) return undefined;
    try {
      return parse(symbols).latex || undefined;
    } catch {
      return undefined;
    }
  };
  // Pieces set apart by a wide space are read one by one: the parser sees no spaces.
  const readPieces = (pieces: Box[] | undefined): string | undefined => {
    const latex = pieces?.map(read);
    return latex?.every(Boolean) ? latex.join(' \\qquad ') : undefined;
  };
  return {
    inlineLatex: read,
    displayLatex: (line) => {
      if (!isDisplayLine(line)) return undefined;
      const latex = readPieces(line.display.pieces) ?? read(line.display.box);
      if (latex && includeTags && line.display.tag) return `${latex} \\tag{${line.display.tag}}`;
      return latex;
    },
  };
}
