import type { Grid } from '../blocks-model.js';

/**
 * A table as MMD. Like the hosted service's PDF output, a LaTeX tabular with every cell boxed:
 * `\hline` before each row and after the last, and `|` between columns. convert-tables.ts reads
 * it back into a grid (pandoc's LaTeX reader) for xlsx and the other formats.
 */

/** LaTeX specials that end a cell or start a comment; maths runs never contain them unescaped. */
const SPECIAL = /(?<!\\)([&%#])/g;

/**
 * @param cell the MMD of one cell (its words and inline maths)
 * @param written told where each cell's MMD stands in the table's
 */
export function tableToMmd<C>(table: Grid<C>, cell: (c: C) => string, written?: (c: C, start: number, end: number) => void): string {
  let out = `\\begin{tabular}{|${table.align.join('|')}|}`;
  for (const cells of table.rows) {
    out += '\n\\hline ';
    cells.forEach((c, i) => {
      if (i > 0) out += ' & ';
      if (!c) return;
      const text = cell(c).replace(SPECIAL, '\\$1');
      written?.(c, out.length, out.length + text.length);
      out += text;
    });
    out += ' \\\\';
  }
  return `${out}\n\\hline\n\\end{tabular}`;
}
