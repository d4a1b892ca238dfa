import type { Grid } from '../blocks-model.js';
import { DEFAULT_DISPLAY, DEFAULT_INLINE } from './mmd.js';
import type { RenderOptions } from './options.js';

/**
 * A table as MMD. Like the hosted service's PDF output, a LaTeX tabular with every cell boxed:
 * `\hline` before each row and after the last, and `|` between columns. convert-tables.ts reads
 * it back into a grid (pandoc's LaTeX reader) for xlsx and the other formats.
 */

/** LaTeX specials that end a cell or start a comment, in a cell's words; its maths keeps them (`&` between a matrix's columns). */
const SPECIAL = /(?<!\\)([&%#])/g;

/** A cell's MMD with the specials of its words escaped, the maths between `delimiters` left as written. */
function escapeWords(mmd: string, delimiters: [string, string][]): string {
  let out = '';
  let at = 0;
  for (;;) {
    const opens = delimiters.map(([open, close]) => ({ open, close, start: mmd.indexOf(open, at) })).filter((d) => d.start >= 0);
    const first = opens.sort((a, b) => a.start - b.start)[0];
    const end = first && mmd.indexOf(first.close, first.start + first.open.length);
    if (!first || end === undefined || end < 0) return out + mmd.slice(at).replace(SPECIAL, '\\$1');
    out += mmd.slice(at, first.start).replace(SPECIAL, '\\$1') + mmd.slice(first.start, end + first.close.length);
    at = end + first.close.length;
  }
}

/**
 * @param cell the MMD of one cell (its words and inline maths)
 * @param written told where each cell's MMD stands in the table's
 * @param opts the maths delimiters the cells are written with
 */
export function tableToMmd<C>(
  table: Grid<C>,
  cell: (c: C) => string,
  written?: (c: C, start: number, end: number) => void,
  opts: Pick<RenderOptions, 'math_inline_delimiters' | 'math_display_delimiters'> = {},
): string {
  const delimiters = [opts.math_inline_delimiters ?? DEFAULT_INLINE, opts.math_display_delimiters ?? DEFAULT_DISPLAY];
  let out = `\\begin{tabular}{|${table.align.join('|')}|}`;
  for (const cells of table.rows) {
    out += '\n\\hline ';
    cells.forEach((c, i) => {
      if (i > 0) out += ' & ';
      if (!c) return;
      const text = escapeWords(cell(c), delimiters);
      written?.(c, out.length, out.length + text.length);
      out += text;
    });
    out += ' \\\\';
  }
  return `${out}\n\\hline\n\\end{tabular}`;
}
