import { symbolsInRegion, type PdfPageMath } from '../../engine/math/pdf/index.js';
import { glyphSymbol, inside } from '../../engine/math/pdf/symbols.js';
import { type Box, type MathResult, type MathSymbol, RADICAL } from '../../engine/math/types.js';
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
  const radicals = radicalOfVinculum(math);
  const read = (box: Box): string | undefined => {
    // A vinculum belongs with its radical sign: the root of the line below must not underline this region.
    const rules = math.rules.filter((r) => !radicals.has(r) || inside(radicals.get(r)!, box));
    const symbols = symbolsInRegion({ ...math, rules }, box);
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

/** Each rule that starts at a radical sign's top right (its vinculum), with the sign's ink box. */
function radicalOfVinculum(math: PdfPageMath): Map<Box, Box> {
  const owners = new Map<Box, Box>();
  for (const g of math.glyphs) {
    if (glyphSymbol(g)?.latex !== RADICAL) continue;
    const reach = Math.max(1, 0.3 * g.size);
    const rule = math.rules.find((r) => Math.abs(r.x0 - g.box.x1) <= reach && Math.abs(r.y0 - g.box.y0) <= reach);
    if (rule) owners.set(rule, g.box);
  }
  return owners;
}
