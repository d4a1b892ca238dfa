import { describe, expect, it } from 'vitest';
import { tableToMmd } from './tables-mmd.js';

describe('tableToMmd', () => {
  const grid = { align: ['l', 'l'], rows: [['R&D 10%', 'cost \\( \\begin{array}{ll}a & b\\end{array} \\) in #3']] };

  it("escapes a cell's specials in its words and leaves its maths as written", () => {
    expect(tableToMmd(grid, (c: string) => c)).toContain('\\hline R\\&D 10\\% & cost \\( \\begin{array}{ll}a & b\\end{array} \\) in \\#3 \\\\');
  });

  it('knows the maths by the delimiters the cells were written with', () => {
    const dollars = { align: ['l'], rows: [['a & $x & y$ & \\[\nu & v\n\\]']] };
    const mmd = tableToMmd(dollars, (c: string) => c, undefined, { math_inline_delimiters: ['$', '$'] });
    expect(mmd).toContain('a \\& $x & y$ \\& \\[\nu & v\n\\]');
  });
});
