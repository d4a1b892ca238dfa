import type { PdfPageMath } from '../../engine/math/pdf/index.js';
import { glyphSymbol, inside, symbolsInRegion } from '../../engine/math/pdf/symbols.js';
import { type Box, type MathResult, type MathSymbol, RADICAL, type RowSpan } from '../../engine/math/types.js';
import { tagEachRow } from '../../../page/row-tags.js';
import type { RegionLatex } from './inline.js';
import { isDisplayLine } from './math-regions.js';
import type { ReadRows } from './adjacent-displays.js';
import type { TextLine } from './text-layer.js';

/** Born-digital maths → LaTeX: a region's glyphs and rules through the 2-D layout parser. */

export type ParseMath = (symbols: MathSymbol[]) => MathResult;

export interface PageMathLatex {
  inlineLatex: RegionLatex;
  displayLatex: (line: TextLine) => string | undefined;
  /** The rows of a region read as one display, when it has two or more (math-regions.ts parts adjacent displays by them). */
  readRows: ReadRows;
}

/**
 * The page's readers for inline runs and display equations. A region the parser cannot read (it
 * throws, or returns nothing) gives undefined, and the caller falls back to the glyph-by-glyph map.
 * A display's single equation number is its block's `tag`, written by the renderer
 * (page/render/page-mmd.ts); the numbers of a display's rows belong with its rows.
 * @param includeTags write the numbers of a display's rows as `\tag{n}` (spec 4.7 include_equation_tags)
 */
export function pageMathLatex(math: PdfPageMath, parse: ParseMath, includeTags: boolean): PageMathLatex {
  const radicals = radicalOfVinculum(math);
  const parseRegion = (box: Box, numbers: Box[] = []): MathResult | undefined => {
    // A vinculum belongs with its radical sign: the root of the line below must not underline this region.
    const rules = math.rules.filter((r) => !radicals.has(r) || inside(radicals.get(r)!, box));
    // An equation number inside a display's box is its tag, not maths.
    const glyphs = numbers.length ? math.glyphs.filter((g) => !numbers.some((n) => inside(g.box, n))) : math.glyphs;
    const symbols = symbolsInRegion({ ...math, glyphs, rules }, box);
    if (symbols.length === 0) return undefined;
    try {
      const result = parse(symbols);
      return result.latex ? result : undefined;
    } catch {
      return undefined;
    }
  };
  const read = (box: Box): string | undefined => parseRegion(box)?.latex;
  // Pieces set apart by a wide space are read one by one: the parser sees no spaces.
  const readPieces = (pieces: MathResult[] | undefined): string | undefined => {
    const latex = pieces?.map((piece) => piece?.latex);
    return latex?.every(Boolean) ? latex.join(' \\qquad ') : undefined;
  };
  return {
    inlineLatex: read,
    readRows: (box) => {
      const result = parseRegion(box);
      return result?.rows ? { rows: result.rows, gathered: result.latex.startsWith('\\begin{gathered}') } : undefined;
    },
    displayLatex: (line) => {
      if (!isDisplayLine(line)) return undefined;
      const { pieces, rowTags, numbers } = line.display;
      const pieceResults = pieces?.map((piece) => parseRegion(piece, numbers));
      // The column pairs of an alignat (or align) stand a wide space apart: pieces that are the same rows are one display.
      const columnPairs = pieceResults !== undefined && sameRows(pieceResults);
      const whole = pieces && !columnPairs ? undefined : parseRegion(line.display.box, numbers);
      const latex = pieces && !columnPairs ? (readPieces(pieceResults as MathResult[]) ?? parseRegion(line.display.box, numbers)?.latex) : whole?.latex;
      return latex && includeTags && rowTags ? tagRows(latex, whole?.rows, rowTags) : latex;
    },
  };
}

/** Whether every piece is a multi-row block whose rows lie level with the first piece's rows. */
function sameRows(pieces: Array<MathResult | undefined>): boolean {
  const first = pieces[0]?.rows;
  if (!first || first.length < 2) return false;
  const level = (a: RowSpan, b: RowSpan) => Math.max(a.y0, b.y0) < Math.min(a.y1, b.y1);
  return pieces.every((piece) => piece?.rows?.length === first.length && piece.rows.every((row, i) => level(row, first[i]!)));
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

/**
 * A multi-line display with an equation number on several rows: each number goes to the row it is
 * level with (page/row-tags.ts writes them). When the rows cannot be matched, the numbers are one
 * tag for the display.
 */
export function tagRows(latex: string, spans: RowSpan[] | undefined, tags: Array<{ tag: string; y: number }>): string {
  const all = [tags.map((t) => t.tag)];
  if (!spans) return tagEachRow(latex, all);
  const middle = (span: RowSpan) => (span.y0 + span.y1) / 2;
  const nearest = (y: number) => spans.reduce((best, span, i) => (Math.abs(y - middle(span)) < Math.abs(y - middle(spans[best]!)) ? i : best), 0);
  const byRow: string[][] = spans.map(() => []);
  for (const { tag, y } of tags) byRow[nearest(y)]!.push(tag);
  return tagEachRow(latex, byRow);
}
