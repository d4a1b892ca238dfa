import { smilesElement } from '../../core/chemistry.js';
import type { PageLine } from '../model.js';
import { rmFonts, rmSpaces } from './latex-formats.js';
import { textBlocks, withoutBullet } from '../processors/blocks.js';
import { tableToMmd } from './tables-mmd.js';
import { codeLineText } from '../processors/code-lines.js';
import { headingText } from '../processors/headings.js';
import type { RenderOptions } from './options.js';

/**
 * The MMD of a recognised image (4.2 output rules): text lines as read, with their inline maths
 * between the inline delimiters; maths lines as LaTeX between the display delimiters (one line
 * between them, rule 7); the LaTeX options applied to every equation; paragraphs separated by a
 * blank line, bulleted lists as itemize environments (rule 1) and code as a listing environment or,
 * with disable_lstlisting, a fenced block (rule 2), and tables as a boxed tabular, as documents'
 * tables are (page/processors/blocks.ts finds all four); a chemical structure (include_smiles) as `<smiles>`,
 * with include_inchi its InChI and InChIKey as attributes (core/chemistry.ts).
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
export function styleLatex(latex: string, opts: RenderOptions): string {
  let out = latex;
  if (opts.rm_spaces !== false) out = rmSpaces(out);
  if (opts.rm_fonts) out = rmFonts(out);
  if (opts.idiomatic_braces) out = out.replace(/([_^])\{([A-Za-z0-9])\}/g, '$1$2');
  if (!(opts.idiomatic_eqn_arrays || opts.include_equation_tags)) {
    out = out.replace(/\\begin\{cases\}([\s\S]*?)\\end\{cases\}/g, '\\left\\{\\begin{array}{ll}$1\\end{array}\\right.');
  }
  return out;
}

export function inlineMath(latex: string, opts: RenderOptions): string {
  const [open, close] = opts.math_inline_delimiters ?? DEFAULT_INLINE;
  return `${open} ${latex} ${close}`;
}

export function displayMath(latex: string, opts: RenderOptions): string {
  const [open, close] = opts.math_display_delimiters ?? DEFAULT_DISPLAY;
  return `${open}\n${latex}\n${close}`;
}

/**
 * The MMD of the lines in reading order. When the whole image is one equation (`single`), its
 * text is that equation in inline delimiters, as the hosted service answers a cropped formula.
 * `upright` gives a line's box in the upright image (paragraphs and lists are found from them);
 * `blocks` are those textBlocks finds, when the caller has them already.
 */
export function linesToMmd(
  lines: PageLine[],
  opts: RenderOptions,
  single: boolean,
  upright: (l: PageLine) => PageLine['box'] = (l) => l.box,
  blocks = textBlocks(lines, upright),
): string {
  if (single && lines[0]?.math) return inlineMath(styleLatex(lines[0].math.latex, opts), opts);
  return blocks
    .filter((block) => block.kind !== 'furniture')
    .map((block) => {
      if (block.kind === 'paragraph' || block.kind === 'display_math') return block.lines.map((l) => lineMmd(l, opts)).join('\n');
      if (block.kind === 'heading')
        // One line of single spaces: a text model may read a wide gap (after a section number) as two.
        return `${'#'.repeat(block.level)} ${block.lines
          .map((l) => (l.kind === 'math' ? headingText(l) : lineMmd(l, opts)))
          .join(' ')
          .replace(/\s+/g, ' ')}`;
      if (block.kind === 'table') return tableToMmd(block.grid, (l) => lineMmd(l, opts));
      if (block.kind === 'code') {
        // As read, never with maths: rule 2 keeps maths inside code plain.
        const left = Math.min(...block.lines.map((l) => upright(l).x));
        const body = block.lines.map((l) => codeLineText(l, left, block.pitch, block.fit, upright)).join('\n');
        return opts.disable_lstlisting ? `\`\`\`\n${body}\n\`\`\`` : `\\begin{lstlisting}\n${body}\n\\end{lstlisting}`;
      }
      if (block.kind === 'figure') return block.figure.mmd;
      const items = block.items.map((item) => item.lines.map((l) => lineMmd(l, opts)).join(' '));
      if (opts.disable_itemize) return items.join('\n');
      return ['\\begin{itemize}', ...items.map((t) => `\\item ${withoutBullet(t)}`), '\\end{itemize}'].join('\n');
    })
    .join('\n\n');
}

/**
 * One line's MMD: a maths line in display delimiters, a text line as read with its inline maths
 * in inline delimiters (no space before the punctuation that follows a formula), and with
 * numbers_default_to_math a line that is only a number in inline maths.
 */
export function lineMmd(l: PageLine, opts: RenderOptions): string {
  if (l.chemistry) return smilesElement(l.chemistry, opts.include_inchi);
  if (l.kind === 'math' && l.math) return displayMath(styleLatex(l.math.latex, opts), opts);
  if (l.segments) {
    const parts = l.segments.map((s) => (s.kind === 'math' ? inlineMath(styleLatex(s.math.latex, opts), opts) : s.words.map((w) => w.text).join(' ')));
    return parts.reduce((out, part) => (out && !/^[.,;:!?)]/.test(part) ? `${out} ${part}` : out + part), '');
  }
  if (opts.numbers_default_to_math && NUMBER.test(l.text)) return inlineMath(l.text.replace('−', '-'), opts);
  return l.text;
}
