/**
 * The Computer Modern maths extension font (CMEX10, and Latin Modern's LMMathExtension with the
 * same layout) by character code. Its glyph names (summationdisplay, parenleftbigg, radicalbt…)
 * mostly have no Unicode, so pdf.js hands back the raw code; this table gives each its meaning.
 */

export interface CmexGlyph {
  /** The LaTeX token of the finished symbol: '(' for every size and piece of a parenthesis. */
  latex: string;
  /**
   * 'whole' for a glyph that is the symbol by itself (a sized delimiter, a big operator); 'top',
   * 'middle', 'bottom' and 'extender' for the pieces TeX stacks into an extensible delimiter.
   */
  part: 'whole' | 'top' | 'middle' | 'bottom' | 'extender';
}

const w = (latex: string): CmexGlyph => ({ latex, part: 'whole' });

/** Sized delimiters repeat in this order at 0x00 (big), 0x10 (Big), 0x12 (bigg), 0x20 (Bigg). */
const DELIMITER_PAIRS = [
  '(',
  ')',
  '[',
  ']',
  '\\lfloor',
  '\\rfloor',
  '\\lceil',
  '\\rceil',
  '\\{',
  '\\}',
  '\\langle',
  '\\rangle',
  '|',
  '\\|',
  '/',
  '\\backslash',
];

const TABLE = new Map<number, CmexGlyph>();
DELIMITER_PAIRS.forEach((latex, i) => TABLE.set(i, w(latex)));
['(', ')'].forEach((latex, i) => TABLE.set(0x10 + i, w(latex)));
DELIMITER_PAIRS.slice(0, 12).forEach((latex, i) => TABLE.set(0x12 + i, w(latex)));
DELIMITER_PAIRS.slice(0, 12).forEach((latex, i) => TABLE.set(0x20 + i, w(latex)));
[
  [0x1e, '/'],
  [0x1f, '\\backslash'],
  [0x2c, '/'],
  [0x2d, '\\backslash'],
  [0x2e, '/'],
  [0x2f, '\\backslash'],
  [0x44, '\\langle'],
  [0x45, '\\rangle'],
  [0x68, '['],
  [0x69, ']'],
  [0x6a, '\\lfloor'],
  [0x6b, '\\rfloor'],
  [0x6c, '\\lceil'],
  [0x6d, '\\rceil'],
  [0x6e, '\\{'],
  [0x6f, '\\}'],
  [0x46, '\\bigsqcup'],
  [0x47, '\\bigsqcup'],
  [0x48, '\\oint'],
  [0x49, '\\oint'],
  [0x4a, '\\bigodot'],
  [0x4b, '\\bigodot'],
  [0x4c, '\\bigoplus'],
  [0x4d, '\\bigoplus'],
  [0x4e, '\\bigotimes'],
  [0x4f, '\\bigotimes'],
  [0x50, '\\sum'],
  [0x51, '\\prod'],
  [0x52, '\\int'],
  [0x53, '\\bigcup'],
  [0x54, '\\bigcap'],
  [0x55, '\\biguplus'],
  [0x56, '\\bigwedge'],
  [0x57, '\\bigvee'],
  [0x58, '\\sum'],
  [0x59, '\\prod'],
  [0x5a, '\\int'],
  [0x5b, '\\bigcup'],
  [0x5c, '\\bigcap'],
  [0x5d, '\\biguplus'],
  [0x5e, '\\bigwedge'],
  [0x5f, '\\bigvee'],
  [0x60, '\\coprod'],
  [0x61, '\\coprod'],
  [0x62, '\\widehat'],
  [0x63, '\\widehat'],
  [0x64, '\\widehat'],
  [0x65, '\\widetilde'],
  [0x66, '\\widetilde'],
  [0x67, '\\widetilde'],
  [0x70, '\\sqrt'],
  [0x71, '\\sqrt'],
  [0x72, '\\sqrt'],
  [0x73, '\\sqrt'],
].forEach(([code, latex]) => TABLE.set(code as number, w(latex as string)));

/** Pieces of extensible delimiters: [code, token, part]. */
const PIECES: Array<[number, string, CmexGlyph['part']]> = [
  [0x30, '(', 'top'],
  [0x40, '(', 'bottom'],
  [0x42, '(', 'extender'],
  [0x31, ')', 'top'],
  [0x41, ')', 'bottom'],
  [0x43, ')', 'extender'],
  [0x32, '[', 'top'],
  [0x34, '[', 'bottom'],
  [0x36, '[', 'extender'],
  [0x33, ']', 'top'],
  [0x35, ']', 'bottom'],
  [0x37, ']', 'extender'],
  [0x38, '\\{', 'top'],
  [0x3c, '\\{', 'middle'],
  [0x3a, '\\{', 'bottom'],
  [0x39, '\\}', 'top'],
  [0x3d, '\\}', 'middle'],
  [0x3b, '\\}', 'bottom'],
  // The brace extender serves both braces; merging decides which by its neighbours.
  [0x3e, '\\{', 'extender'],
  [0x0c, '|', 'extender'],
  [0x0d, '\\|', 'extender'],
  [0x3f, '|', 'extender'],
  [0x77, '\\|', 'extender'],
  [0x74, '\\sqrt', 'bottom'],
  [0x75, '\\sqrt', 'extender'],
  [0x76, '\\sqrt', 'top'],
];
for (const [code, latex, part] of PIECES) TABLE.set(code, { latex, part });

/**
 * The four pieces of `\overbrace` and `\underbrace` (TeX's \braceld \bracerd \bracelu \braceru: a
 * brace's end or middle tip, turned down or up), joined by rules into the brace (horizontal-braces.ts).
 */
export const BRACE_PIECES = { downLeft: '@brace-ld', downRight: '@brace-rd', upLeft: '@brace-lu', upRight: '@brace-ru' } as const;
TABLE.set(0x7a, w(BRACE_PIECES.downLeft));
TABLE.set(0x7b, w(BRACE_PIECES.downRight));
TABLE.set(0x7c, w(BRACE_PIECES.upLeft));
TABLE.set(0x7d, w(BRACE_PIECES.upRight));

/**
 * yhmath's extended extension font (yhcmex/yrcmex, used by amsart-derived classes such as aomart)
 * keeps CMEX's codes and adds more sizes above 127, each the next larger of a CMEX delimiter
 * (from its virtual font's NEXTLARGER chains): [first code, last code, token].
 */
const YHCMEX_SIZES: Array<[number, number, string]> = [
  [128, 137, '('],
  [138, 147, ')'],
  [148, 150, '['],
  [151, 153, ']'],
  [154, 156, '\\lfloor'],
  [157, 159, '\\rfloor'],
  [160, 162, '\\lceil'],
  [163, 165, '\\rceil'],
  [166, 168, '\\{'],
  [169, 171, '\\}'],
  [172, 181, '\\langle'],
  [182, 191, '\\rangle'],
  [192, 195, '/'],
  [196, 199, '\\backslash'],
  [200, 209, '\\sqrt'],
  [210, 219, '\\widehat'],
  [220, 229, '\\widetilde'],
];
for (const [first, last, latex] of YHCMEX_SIZES) for (let code = first; code <= last; code++) TABLE.set(code, w(latex));

/** yhmath's fonts, whose codes above 127 are YHCMEX_SIZES; other CMEX-like fonts (newtx's txexs) put their own glyphs there. */
const YHMATH_FONT = /yhcmex|yrcmex/i;

const TOKENS = new Set([...TABLE.values()].map((g) => g.latex));

/** Whether some CMEX glyph is this token (a big operator, a delimiter, a wide accent, a radical). */
export function isCmexToken(latex: string): boolean {
  return TOKENS.has(latex);
}

/** The glyph of an extension font by its code; `fontName` tells whether codes above 127 are yhmath's. */
export function cmexGlyph(code: number, fontName: string): CmexGlyph | undefined {
  if (code > 127 && !YHMATH_FONT.test(fontName)) return undefined;
  return TABLE.get(code);
}
