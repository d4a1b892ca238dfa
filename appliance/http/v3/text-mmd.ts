import type { PageLine } from '../../../worker/inference/page-result.js';
import { rmFonts, rmSpaces } from './latex-formats.js';
import type { TextOptions } from './text-options.js';

/**
 * The MMD of a recognised image (4.2 output rules): text lines as read, maths lines as LaTeX
 * between the display delimiters (one line between them, rule 7), and the LaTeX options applied
 * to every equation.
 */

export const DEFAULT_INLINE: [string, string] = ['\\(', '\\)'];
export const DEFAULT_DISPLAY: [string, string] = ['\\[', '\\]'];

const NUMBER = /^[-+−]?\d+(?:[.,]\d+)*$/;

/**
 * The caller's LaTeX options on one equation:
 * - rm_spaces (default true) drops the spaces LaTeX ignores; false keeps the recogniser's spacing;
 * - rm_fonts drops font commands;
 * - idiomatic_braces drops braces around a single-character script (`x^{2}` → `x^2`);
 * - idiomatic_eqn_arrays (forced by include_equation_tags): the recogniser writes `cases`; unless
 *   asked for idioms, it is returned the way the hosted default does, as a braced array.
 */
export function styleLatex(latex: string, opts: TextOptions): string {
  let out = latex;
  if (opts.rm_spaces !== false) out = rmSpaces(out);
  if (opts.rm_fonts) out = rmFonts(out);
  if (opts.idiomatic_braces) out = out.replace(/([_^])\{([A-Za-z0-9])\}/g, '$1$2');
  if (!(opts.idiomatic_eqn_arrays || opts.include_equation_tags)) {
    out = out.replace(/\\begin\{cases\}([\s\S]*?)\\end\{cases\}/g, '\\left\\{\\begin{array}{ll}$1\\end{array}\\right.');
  }
  return out;
}

export function inlineMath(latex: string, opts: TextOptions): string {
  const [open, close] = opts.math_inline_delimiters ?? DEFAULT_INLINE;
  return `${open} ${latex} ${close}`;
}

export function displayMath(latex: string, opts: TextOptions): string {
  const [open, close] = opts.math_display_delimiters ?? DEFAULT_DISPLAY;
  return `${open}\n${latex}\n${close}`;
}

/**
 * One MMD line per recognised line. When the whole image is one equation (`single`), its text
 * is that equation in inline delimiters, as the hosted service answers a cropped formula.
 * numbers_default_to_math puts a line that is only a number in inline maths.
 */
export function linesToMmd(lines: PageLine[], opts: TextOptions, single: boolean): string {
  return lines
    .map((l) => {
      if (l.kind === 'math' && l.math) {
        const latex = styleLatex(l.math.latex, opts);
        return single ? inlineMath(latex, opts) : displayMath(latex, opts);
      }
      if (opts.numbers_default_to_math && NUMBER.test(l.text)) return inlineMath(l.text.replace('−', '-'), opts);
      return l.text;
    })
    .join('\n');
}
