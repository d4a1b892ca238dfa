import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseLatex } from '../../engine/math/latex-normalise.js';
import { compileLatex, type LatexPdf } from '../../../test/support/latex-pdf.js';
import { convertDocument } from './index.js';

/**
 * Grids on a born-digital page: without delimiters (matrix, a smallmatrix inside small
 * parentheses, a grid of digits beside `A =` that no table detector may take), and a vmatrix
 * whose bars are hairlines standing apart from the display's ink.
 */
const PROSE = 'Words of a paragraph that runs across the whole width of the text block, so that the page has prose lines.';
const DISPLAYS: Array<{ source: string; expected: string }> = [
  { source: '\\[ \\begin{matrix} a & b \\\\ c & d \\end{matrix} \\]', expected: '\\begin{matrix}a&b\\\\c&d\\end{matrix}' },
  {
    source: '\\[ A = \\begin{matrix} 1 & 0 & 0 \\\\ 0 & 1 & 0 \\\\ 0 & 0 & 1 \\end{matrix} \\]',
    expected: 'A=\\begin{matrix}1&0&0\\\\0&1&0\\\\0&0&1\\end{matrix}',
  },
  {
    source: '\\[ \\bigl( \\begin{smallmatrix} p & -q \\\\ q & p \\end{smallmatrix} \\bigr) \\]',
    expected: '(\\begin{smallmatrix}p&-q\\\\q&p\\end{smallmatrix})',
  },
  {
    source:
      '\\[ \\begin{matrix} \\alpha & \\beta \\\\ \\gamma & \\delta \\end{matrix} \\quad \\begin{pmatrix} \\alpha & \\beta \\\\ \\gamma & \\delta \\end{pmatrix} \\]',
    expected: '\\begin{matrix}\\alpha&\\beta\\\\\\gamma&\\delta\\end{matrix}\\quad\\begin{pmatrix}\\alpha&\\beta\\\\\\gamma&\\delta\\end{pmatrix}',
  },
  { source: '\\[ \\begin{vmatrix} u & v \\\\ w & z \\end{vmatrix} = uz - vw \\]', expected: '\\begin{vmatrix}u&v\\\\w&z\\end{vmatrix}=uz-vw' },
  // Not grids: align's rows (\jot apart), a display fraction's parts, scripts on one base.
  { source: '\\begin{align*} x &= 1 & y &= 2 \\\\ z &= 3 & w &= 4 \\end{align*}', expected: '\\begin{aligned}x&=1&y&=2\\\\z&=3&w&=4\\end{aligned}' },
  { source: '\\[ \\frac{a}{b} \\quad x_{i}^{n} \\quad T^{jk}_{lm} \\]', expected: '\\frac{a}{b}\\quad x_{i}^{n}\\quad T^{jk}_{lm}' },
];

let pdf: LatexPdf;
let mmd: string;

beforeAll(async () => {
  pdf = await compileLatex([PROSE, ...DISPLAYS.flatMap(({ source }) => [source, PROSE])].join('\n'));
  ({ mmd } = await convertDocument(pdf.path, { idiomaticEqnArrays: true }));
}, 60_000);

afterAll(() => pdf?.cleanup());

describe('grids on a born-digital page', () => {
  it.each(DISPLAYS.map(({ expected }, index) => [expected, index] as const))('reads %s', (expected, index) => {
    const found = [...mmd.matchAll(/\\\[\n(.*?)\n\\\]/gu)].map((match) => normaliseLatex(match[1]!));
    expect(found[index]).toBe(normaliseLatex(expected));
  });

  it('writes no table for a grid of digits in a display', () => {
    expect(mmd).not.toContain('\\begin{tabular}');
  });
});
