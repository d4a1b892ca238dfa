import { largeop } from '@mathjax/mathjax-newcm-font/js/svg/largeop.js';
import { normal } from '@mathjax/mathjax-newcm-font/js/svg/normal.js';

/**
 * Glyph ink for the test typesetter, read from New Computer Modern's outlines as MathJax ships
 * them (the bounding box of each outline's points), so test boxes come from a real font and not
 * from the parser's own metrics table. Units are em; y grows upwards from the baseline.
 */
export interface Ink {
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  advance: number;
}

const GREEK = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho varsigma sigma tau upsilon phi chi psi omega'.split(' ');
const SYMBOLS: Record<string, string> = {
  '+': '+',
  '-': '\u2212',
  '=': '=',
  '<': '<',
  '>': '>',
  '(': '(',
  ')': ')',
  '[': '[',
  ']': ']',
  '|': '|',
  ',': ',',
  '.': '.',
  '\\{': '{',
  '\\}': '}',
  '\\pm': '\u00B1',
  '\\times': '\u00D7',
  '\\cdot': '\u22C5',
  '\\leq': '\u2264',
  '\\geq': '\u2265',
  '\\rightarrow': '\u2192',
  '\\infty': '\u221E',
  '\\partial': '\u2202',
  '\\sum': '\u2211',
  '\\prod': '\u220F',
  '\\int': '\u222B',
  '\\oint': '\u222E',
  '\\prime': '\u2032',
  '\\hat': '\u02C6',
  '\\vec': '\u2192',
  '\\Delta': '\u0394',
};

type CharTable = Record<number, [number, number, number, { p?: string }?]>;

function codePoint(token: string, upright: boolean): number {
  if (/^[a-z]$/u.test(token) && !upright) return token === 'h' ? 0x210e : 0x1d44e + token.charCodeAt(0) - 97;
  if (/^[A-Z]$/u.test(token) && !upright) return 0x1d434 + token.charCodeAt(0) - 65;
  const greek = GREEK.indexOf(token.slice(1));
  if (token.startsWith('\\') && greek >= 0) return 0x1d6fc + greek;
  const symbol = SYMBOLS[token] ?? token;
  return symbol.codePointAt(0) as number;
}

/** The ink box of a token at 1 em; `display` picks the large variant of big operators. */
export function glyphInk(token: string, options: { upright?: boolean; display?: boolean } = {}): Ink {
  const point = codePoint(token, options.upright ?? false);
  const table = (options.display && (largeop as unknown as CharTable)[point] ? largeop : normal) as unknown as CharTable;
  const entry = table[point];
  if (!entry) throw new Error(`no glyph for ${token}`);
  const [height, depth, advance, data] = entry;
  const numbers = (data?.p?.match(/-?\d+(?:\.\d+)?/gu) ?? []).map(Number);
  if (numbers.length < 2) return { x0: 0, x1: advance, top: height, bottom: -depth, advance };
  const xs = numbers.filter((_, i) => i % 2 === 0);
  const ys = numbers.filter((_, i) => i % 2 === 1);
  return { x0: Math.min(...xs) / 1000, x1: Math.max(...xs) / 1000, top: Math.max(...ys) / 1000, bottom: Math.min(...ys) / 1000, advance };
}
