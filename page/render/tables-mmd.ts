import type { Grid } from '../blocks-model.js';

/**
 * A table as MMD. Like the hosted service's PDF output, a LaTeX tabular with every cell boxed:
 * `\hline` before each row and after the last, and `|` between columns. convert-tables.ts reads
 * it back into a grid (pandoc's LaTeX reader) for xlsx and the other formats.
 */

/** LaTeX specials that end a cell or start a comment; maths runs never contain them unescaped. */
const SPECIAL = /(?<!\\)([&%#])/g;

/** @param cell the MMD of one cell (its words and inline maths) */
export function tableToMmd<C>(table: Grid<C>, cell: (c: C) => string): string {
  const rows = table.rows.map((cells) => `\\hline ${cells.map((c) => (c ? cell(c).replace(SPECIAL, '\\$1') : '')).join(' & ')} \\\\`);
  return [`\\begin{tabular}{|${table.align.join('|')}|}`, ...rows, '\\hline', '\\end{tabular}'].join('\n');
}
