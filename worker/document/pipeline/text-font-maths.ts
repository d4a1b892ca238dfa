import { isMathChar } from '../../engine/math/unicode-latex.js';
import { FUNCTION_NAME } from './inline.js';
import type { Glyph, TextLine } from './text-layer.js';

/**
 * Maths set in a text font. Some documents give their maths letters the text italic (lazylist's
 * TUGboat article sets every formula in CMTI; a word processor's italic x), so no maths font marks
 * their displays: math-regions.ts asks this module which lines are formulas all the same.
 */

/** A relation or operator that makes a line of text-font letters a formula (a maths font's symbols are maths anyway). */
const TEXT_OPERATOR = /^[=<>+]$/;
/** The other characters of a formula set in a text font: digits, brackets, punctuation, a minus or a slash. */
const TEXT_FORMULA_CHAR = /^[0-9()[\]{}|,.;:'/*!\-]$/;
const isLetter = (g: Glyph) => /\p{L}/u.test(g.ch);

/**
 * A line of maths set in a text font: its letters italic (a text italic, as a document setting its
 * maths in the text font prints them, or a maths font), an upright word only an operator name, the
 * rest digits, brackets, operators and maths symbols. 'formula' when it holds a relation or an
 * operator; 'operand' when it holds none but has a one-letter identifier (`Foo x`: the left side
 * of a multi-row display, on a row of its own). Italic prose (emphasis, a theorem) has upright
 * words, punctuation or no identifier, or stands at its column's edge: the caller keeps it prose.
 */
export function textFontMaths(line: TextLine): 'formula' | 'operand' | undefined {
  const italic = (g: Glyph) => Boolean(g.italic) || g.mathFont || isMathChar(g.ch);
  let operator = false;
  for (const g of line.glyphs) {
    if (g.ch === ' ' || isLetter(g)) continue;
    if (TEXT_OPERATOR.test(g.ch) || g.mathFont || isMathChar(g.ch)) operator = true;
    else if (!TEXT_FORMULA_CHAR.test(g.ch)) return undefined;
  }
  const words = line.glyphs
    .map((g) => (isLetter(g) ? g : undefined))
    .reduce<Glyph[][]>((all, g) => (g ? (all.at(-1)!.push(g), all) : all.at(-1)!.length ? [...all, []] : all), [[]])
    .filter((word) => word.length);
  const upright = words.filter((word) => !word.every(italic) && !FUNCTION_NAME.test(word.map((g) => g.ch).join('')));
  if (!words.length || upright.length) return undefined;
  if (operator) return 'formula';
  return words.some((word) => word.length === 1) ? 'operand' : undefined;
}
