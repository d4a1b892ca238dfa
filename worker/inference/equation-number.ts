import { EQUATION_NUMBER } from '../../page/equation-number.js';
import type { MathSymbol } from '../engine/math/types.js';

/**
 * The equation number of a display read from a page image: the row of ink the maths engine reads
 * holds the number set at the margin beside the formula (`x = 0      (1)`), which would otherwise
 * end up inside the LaTeX as `x=0(1)`. A number is a parenthesised run of digits and letters
 * (page/equation-number.ts) at the right end of the row (or, with `leqno`, the left), parted from
 * the rest of the formula by more white than TAG_GAP times its parentheses' height: amsmath sets it
 * at least half an em from the maths and usually far more, while a parenthesised argument or
 * factor in a formula stands a thin space from what precedes it.
 */

/** White between a number and its formula, in heights of the number's parentheses (about an em). */
export const TAG_GAP = 1;
/** Symbols inside a number's parentheses, at most. */
const MAX_INSIDE = 6;

/** How a symbol reads inside an equation number. */
const CHARACTERS: Record<string, string> = { '\\prime': "'", '\\ast': '*', '\\star': '*', '*': '*', '.': '.' };
const character = (s: MathSymbol): string | undefined => (/^[0-9A-Za-z]$/u.test(s.latex) ? s.latex : CHARACTERS[s.latex]);

export interface NumberedSymbols {
  /** The formula's symbols without the number. */
  symbols: MathSymbol[];
  /** The number without its parentheses, a starred mark spelled `*`; absent when there is none. */
  tag?: string;
}

/** The symbols of one row of a page image with its equation number taken apart, when it has one. */
export function splitEquationNumber(symbols: readonly MathSymbol[]): NumberedSymbols {
  const ordered = [...symbols].sort((a, b) => a.box.x0 - b.box.x0);
  return numberAt(ordered, 'right') ?? numberAt(ordered, 'left') ?? { symbols: [...symbols] };
}

function numberAt(ordered: MathSymbol[], side: 'right' | 'left'): NumberedSymbols | undefined {
  const row = side === 'right' ? ordered : [...ordered].reverse();
  const [close, open] = side === 'right' ? [')', '('] : ['(', ')'];
  const end = row.length - 1;
  if (row[end]?.latex !== close) return undefined;
  let start = end - 1;
  while (start >= 0 && end - start - 1 <= MAX_INSIDE && row[start]!.latex !== open) start--;
  if (start <= 0 || row[start]!.latex !== open) return undefined;
  const inside = row.slice(start + 1, end);
  const characters = inside.map(character);
  if (!characters.length || characters.some((c) => c === undefined)) return undefined;
  const text = side === 'right' ? characters.join('') : characters.reverse().join('');
  if (!EQUATION_NUMBER.test(`(${text})`)) return undefined;
  const number = row.slice(start);
  const rest = row.slice(0, start);
  const height = Math.max(...[row[start]!, row[end]!].map((s) => s.box.y1 - s.box.y0));
  const gap = side === 'right' ? row[start]!.box.x0 - Math.max(...rest.map((s) => s.box.x1)) : Math.min(...rest.map((s) => s.box.x0)) - row[start]!.box.x1;
  // The number's ink lies level with its parentheses (no script, no fraction).
  const level = number.every((s) => s.box.y0 >= row[start]!.box.y0 - 1 && s.box.y1 <= row[start]!.box.y1 + 1);
  if (gap < TAG_GAP * height || !level) return undefined;
  const kept = new Set(rest);
  return { symbols: ordered.filter((s) => kept.has(s)), tag: text.replace(/′/gu, "'") };
}
