import type { MathSymbol } from '../types.js';
import type { PdfGlyph } from './page-reader.js';
import { isRawCode } from './tex-fonts.js';

/**
 * TeX symbols that one glyph prints, or whose names pdf.js confuses, told apart by what TeX does
 * with them: the two phis by their shape, `\setminus` and `\backslash` by their spacing.
 */

/** Between the ascender line of TeX's straight `\phi` (0.69 em in CMMI, Latin Modern, newtx's sans) and the x-height of the curly `\varphi` (0.43 em). */
const PHI_ASCENDER_EM = 0.56;

/**
 * TeX's two phis by their shape. pdf.js names a glyph from the font's ToUnicode map where it has
 * one (TeX's names them by shape) and else from the Adobe glyph list, which has them the other way
 * round (`phi`, CMMI's straight phi at 0x1E, is U+03C6): every phi of a dvips PDF, or of a pdfTeX
 * PDF without ToUnicode maps, would read as the other one. The straight `\phi` rises to the
 * ascenders, the curly `\varphi` only to the x-height, in every maths italic font.
 */
export function phiByShape(g: PdfGlyph, latex: string): string {
  if ((latex !== '\\phi' && latex !== '\\varphi') || g.font.family !== 'math-italic' || !g.exactInk || isRawCode(g.unicode, g.code)) return latex;
  return g.baseline - g.box.y0 > PHI_ASCENDER_EM * g.size ? '\\phi' : '\\varphi';
}

/**
 * White (em) on each side of the backslash glyph beyond which it is the binary `\setminus`: TeX
 * sets a medium space (4 mu, 0.22 em) on either side of a binary operator, none beside the
 * ordinary `\backslash`; the glyph's and its neighbours' side bearings add about 0.1 em to both.
 */
const BINARY_WHITE_EM = 0.2;

/**
 * The backslash glyph between two neighbours on its baseline with no operator space on either
 * side is `\backslash` (`\Omega\backslash S`), not `\setminus` (`\Omega \setminus S`).
 */
export function backslashesBySpacing(symbols: MathSymbol[]): MathSymbol[] {
  return symbols.map((s) => {
    if (s.latex !== '\\setminus' || s.size === undefined || s.baseline === undefined) return s;
    const size = s.size;
    const level = symbols.filter(
      (o) =>
        o !== s &&
        o.size !== undefined &&
        Math.abs(o.size - size) <= 0.1 * size &&
        o.baseline !== undefined &&
        Math.abs(o.baseline - s.baseline!) <= 0.1 * size,
    );
    const left = Math.max(...level.filter((o) => o.box.x1 <= s.box.x0 + 0.05 * size).map((o) => o.box.x1));
    const right = Math.min(...level.filter((o) => o.box.x0 >= s.box.x1 - 0.05 * size).map((o) => o.box.x0));
    const tight = s.box.x0 - left < BINARY_WHITE_EM * size && right - s.box.x1 < BINARY_WHITE_EM * size;
    return tight ? { ...s, latex: '\\backslash' } : s;
  });
}
