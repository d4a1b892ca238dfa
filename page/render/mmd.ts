import { smilesElement } from '../../core/chemistry.js';
import type { PageLine } from '../model.js';
import { tagEachRow } from '../row-tags.js';
import { arraySpelling } from './eqn-arrays.js';
import { rmFonts, rmSpaces } from './latex-formats.js';
import type { RenderOptions } from './options.js';

/**
 * MMD of maths and of one recognised line (4.2 output rules): a text line as read, with its inline
 * maths between the inline delimiters; a maths line as LaTeX between the display delimiters (one
 * line between them, rule 7); the LaTeX options applied to every equation; a chemical structure
 * (include_smiles) as `<smiles>`, with include_inchi its InChI and InChIKey as attributes
 * (core/chemistry.ts). Blocks are written by page-mmd.ts.
 */

export const DEFAULT_INLINE: [string, string] = ['\\(', '\\)'];
export const DEFAULT_DISPLAY: [string, string] = ['\\[', '\\]'];

/** A number standing as a word of prose: after a space, an opening bracket or the start, before a space, punctuation or the end. */
const NUMBER_WORD = /(^|[\s(])([-+−]?\d+(?:[.,]\d+)*)(?=[.,;:!?)]*(?:\s|$))/gu;
/** A list item's number at a line's start (`1.`, `2)`): written as printed, as its marker. */
const ITEM_NUMBER = /^\d{1,3}[.)](?=\s)/u;

/**
 * The caller's LaTeX options on one equation:
 * - rm_spaces (default true) drops the spaces LaTeX ignores; false keeps the recogniser's spacing;
 * - rm_fonts drops font commands;
 * - idiomatic_braces drops braces around a single-character script (`x^{2}` → `x^2`);
 * - idiomatic_eqn_arrays (forced by include_equation_tags): the recognisers write `aligned`,
 *   `gathered` and `cases`; unless asked for idioms, they are returned the way the hosted default
 *   does, as arrays (eqn-arrays.ts).
 */
export function styleLatex(latex: string, opts: RenderOptions): string {
  let out = latex;
  if (opts.rm_spaces !== false) out = rmSpaces(out);
  if (opts.rm_fonts) out = rmFonts(out);
  if (opts.idiomatic_braces) out = out.replace(/([_^])\{([A-Za-z0-9])\}/g, '$1$2');
  if (!(opts.idiomatic_eqn_arrays || opts.include_equation_tags)) out = arraySpelling(out);
  return out;
}

/**
 * Inline maths as every page kind writes it, as the hosted service's answers show it: a space
 * inside LaTeX's delimiters (`\( x \)`, as Mathpix Markdown's syntax reference writes them too),
 * none inside others (`$x$`: a Markdown reader takes `$ x $` for two dollar signs).
 */
export function inlineMath(latex: string, opts: RenderOptions): string {
  const [open, close] = opts.math_inline_delimiters ?? DEFAULT_INLINE;
  const pad = open.startsWith('\\') ? ' ' : '';
  return `${open}${pad}${latex}${pad}${close}`;
}

export function displayMath(latex: string, opts: RenderOptions): string {
  const [open, close] = opts.math_display_delimiters ?? DEFAULT_DISPLAY;
  return `${open}\n${latex}\n${close}`;
}

/**
 * A display's LaTeX with its equation number as `\\tag{…}` under include_equation_tags, or each
 * numbered row's (page/row-tags.ts); without, the numbers are left out.
 */
export function tagged(latex: string, tag: string | undefined, opts: RenderOptions, rowTags?: Array<string | undefined>): string {
  if (!opts.include_equation_tags) return latex;
  if (rowTags)
    return tagEachRow(
      latex,
      rowTags.map((t) => (t ? [t] : undefined)),
    );
  return tag ? `${latex} \\tag{${tag}}` : latex;
}

/**
 * One line's MMD: a maths line in display delimiters, a text line as read with its inline maths
 * in inline delimiters (no space before the punctuation that follows a formula), and with
 * numbers_default_to_math its numbers in inline maths.
 */
export function lineMmd(l: PageLine, opts: RenderOptions): string {
  if (l.chemistry) return smilesElement(l.chemistry, opts.include_inchi);
  if (l.kind === 'math' && l.math) return displayMath(tagged(styleLatex(l.math.latex, opts), l.math.tag, opts, l.math.rowTags), opts);
  if (l.segments) {
    const parts = l.segments.map((s) =>
      s.kind === 'math' ? inlineMath(styleLatex(s.math.latex, opts), opts) : numbersAsMath(s.words.map((w) => w.text).join(' '), opts),
    );
    return parts.reduce((out, part) => (out && !/^[.,;:!?)]/.test(part) ? `${out} ${part}` : out + part), '');
  }
  return numbersAsMath(l.text, opts);
}

/**
 * With numbers_default_to_math ("numbers are always math", as the hosted service's clients
 * document it), every number standing as a word of this prose as inline maths: `Answer: \( 17 \).`
 * A number inside a word (`H2O`, `3D`) stays, and so does a list item's number at the start.
 * Give it text only, never MMD that holds maths already.
 */
export function numbersAsMath(text: string, opts: RenderOptions): string {
  if (!opts.numbers_default_to_math) return text;
  const marker = ITEM_NUMBER.exec(text)?.[0] ?? '';
  return marker + text.slice(marker.length).replace(NUMBER_WORD, (_, before: string, n: string) => before + inlineMath(n.replace('−', '-'), opts));
}
