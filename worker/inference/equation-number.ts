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

/**
 * The symbols of one row of a page image with its equation number taken apart, when it has one. A
 * number on rows of its own at the margin (no symbol beside it, white left of it) is no formula's
 * ink either: amsmath lowers a row's number under a row too long to hold it, and a gather's empty
 * last row keeps its number; the row's own number, beside its formula, wins over one alone.
 */
export function splitEquationNumber(symbols: readonly MathSymbol[]): NumberedSymbols {
  let ordered = [...symbols].sort((a, b) => a.box.x0 - b.box.x0);
  let [own, alone]: (string | undefined)[] = [];
  for (let found = numberAt(ordered, 'right'); found; found = numberAt(ordered, 'right')) {
    // Another formula row's number, beside its own formula, stays with it.
    if (!found.alone && own !== undefined) break;
    ordered = found.symbols;
    if (found.alone) alone ??= found.tag;
    else own = found.tag;
  }
  const tag = own ?? alone;
  if (tag !== undefined) return { symbols: ordered, tag };
  return numberAt(ordered, 'left') ?? { symbols: ordered };
}

/** Whether two symbols share half the lower one's height of rows. */
const level = (a: MathSymbol, b: MathSymbol) =>
  Math.min(a.box.y1, b.box.y1) - Math.max(a.box.y0, b.box.y0) >= Math.min(a.box.y1 - a.box.y0, b.box.y1 - b.box.y0) / 2;

/**
 * The number at the row's right end (the symbols sharing the rows of the rightmost symbol) or left
 * end; `alone` when no other symbol shares its rows.
 */
function numberAt(ordered: MathSymbol[], side: 'right' | 'left'): (NumberedSymbols & { tag: string; alone: boolean }) | undefined {
  const edge = side === 'right' ? ordered.reduce<MathSymbol | undefined>((a, s) => (!a || s.box.x1 > a.box.x1 ? s : a), undefined) : ordered[0];
  if (!edge) return undefined;
  const beside = ordered.filter((s) => level(s, edge));
  const row = side === 'right' ? beside : [...beside].reverse();
  const [close, open] = side === 'right' ? [')', '('] : ['(', ')'];
  const end = row.length - 1;
  if (row[end] !== edge || edge.latex !== close) return undefined;
  let start = end - 1;
  while (start >= 0 && end - start - 1 <= MAX_INSIDE && row[start]!.latex !== open) start--;
  if (start < 0 || row[start]!.latex !== open) return undefined;
  const inside = row.slice(start + 1, end);
  const characters = inside.map(character);
  if (!characters.length || characters.some((c) => c === undefined)) return undefined;
  const text = side === 'right' ? characters.join('') : characters.reverse().join('');
  if (!EQUATION_NUMBER.test(`(${text})`)) return undefined;
  const number = row.slice(start);
  const rest = row.slice(0, start);
  const alone = rest.length === 0;
  // A number alone on its rows stands only at the right margin with white left of it: a parenthesised script (`f^{(4)}`) does not.
  if (alone && (side === 'left' || number.length === ordered.length)) return undefined;
  const left = ordered.filter((s) => !number.includes(s) && s.box.x1 <= row[start]!.box.x0 + 1);
  const height = Math.max(...[row[start]!, row[end]!].map((s) => s.box.y1 - s.box.y0));
  const gap = alone
    ? row[start]!.box.x0 - Math.max(...left.map((s) => s.box.x1))
    : side === 'right'
      ? row[start]!.box.x0 - Math.max(...rest.map((s) => s.box.x1))
      : Math.min(...rest.map((s) => s.box.x0)) - row[start]!.box.x1;
  // The number's ink lies level with its parentheses (no script, no fraction).
  const flat = number.every((s) => s.box.y0 >= row[start]!.box.y0 - 1 && s.box.y1 <= row[start]!.box.y1 + 1);
  if (gap < TAG_GAP * height || !flat) return undefined;
  const taken = new Set(number);
  return { symbols: ordered.filter((s) => !taken.has(s)), tag: text.replace(/′/gu, "'"), alone };
}
