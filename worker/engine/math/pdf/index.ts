/**
 * The PDF front end of the maths recogniser: a born-digital page's glyphs (character, font, ink box)
 * and vector rules, read from pdf.js's operator list, turned into MathSymbol[] for a region.
 */
export { readPdfMath, type PdfGlyph, type PdfPageMath } from './page-reader.js';
export { symbolsFrom, symbolsInRegion } from './symbols.js';
export { classifyFont, glyphToken, isMathFamily, isTextItalicFont, type FontFamily } from './tex-fonts.js';
