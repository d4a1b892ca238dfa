import type { Box, MathSymbol, SymbolStyle } from '../types.js';
import type { PdfGlyph } from './page-reader.js';
import { isBoldMathFont } from './tex-fonts.js';

/**
 * Bold from a PDF's glyphs: the fonts `\boldsymbol`, `\mathbf` and `\pmb` draw with, and the
 * bold a whole formula takes from its context (`\boldmath`), which its source does not write.
 */

const PUNCTUATION = /^[.,;:?!'`"]$/u;

/**
 * A glyph's style in a bold font. A bold maths font's letters and symbols are `\boldsymbol`'s (its
 * calligraphic capitals stay calligraphic). A bold text font's letters and digits are
 * `\mathbf`'s; its other symbols only `\boldsymbol` sets in maths (`\mathbf{+}` prints the
 * regular plus), so they are `\boldsymbol`'s too.
 */
export function boldMaths(g: PdfGlyph, latex: string, style: SymbolStyle | undefined): SymbolStyle | undefined {
  // Punctuation looks alike in either weight (and a bold `??` is an undefined reference, not maths).
  if (PUNCTUATION.test(latex)) return style;
  if (isBoldMathFont(g.font.name)) return style === 'calligraphic' ? style : 'bold-italic';
  if (g.font.family !== 'bold' || style !== undefined) return style;
  return /^\d$/u.test(latex) ? 'bold' : 'bold-italic';
}

/**
 * A formula drawn wholly from bold fonts, its punctuation, operators or relations too (`Q.E.D.` in
 * an answer set under `\boldmath`, `\alpha=\beta` in a bold heading, a display under
 * `\mathversion{bold}`): the bold is the context's, and its source writes the plain symbols. A
 * bold letter or digit alone (`\boldsymbol{x}`) says nothing of its context and stays bold.
 */
export function inBoldVersion(glyphs: PdfGlyph[]): boolean {
  const inked = glyphs.filter((g) => /\S/u.test(g.unicode));
  const bold = (g: PdfGlyph) => isBoldMathFont(g.font.name) || g.font.family === 'bold';
  return inked.length > 0 && inked.every(bold) && inked.some((g) => !/^[\p{L}\p{N}]+$/u.test(g.unicode));
}

/** Copies of one glyph drawn this close (share of its size) are one symbol printed over itself. */
const OVERPRINT_SHARE = 0.1;

/**
 * One glyph printed several times over itself is one symbol: `\pmb` (poor man's bold) sets
 * three copies a fraction of a point apart, so it reads bold; copies at the very same place (a
 * PDF that draws its text twice) are one plain symbol.
 */
export function withOverprintsMerged<T extends MathSymbol & { part: string }>(pieces: T[]): T[] {
  const kept: T[] = [];
  for (const piece of [...pieces].sort((a, b) => a.box.x0 - b.box.x0)) {
    const reach = OVERPRINT_SHARE * (piece.size ?? piece.box.y1 - piece.box.y0);
    const near = (a: number, b: number) => Math.abs(a - b) <= reach;
    const copy = kept.find(
      (k) =>
        k.latex === piece.latex &&
        k.part === piece.part &&
        near(k.box.x0, piece.box.x0) &&
        near(k.box.y0, piece.box.y0) &&
        near(k.box.x1, piece.box.x1) &&
        near(k.box.y1, piece.box.y1),
    );
    if (!copy) {
      kept.push(piece);
      continue;
    }
    const moved = copy.box.x0 !== piece.box.x0 || copy.box.y0 !== piece.box.y0;
    const merged: T = { ...copy, box: union(copy.box, piece.box), ...(moved && copy.part === 'whole' ? { style: 'bold-italic' as const } : {}) };
    kept[kept.indexOf(copy)] = merged;
  }
  return kept;
}

const union = (a: Box, b: Box): Box => ({ x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) });
