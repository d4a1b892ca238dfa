import { describe, expect, it } from 'vitest';
import { normaliseLatex } from '../../engine/math/latex-normalise.js';
import { displaysOnPage } from '../../../test/support/display-page.js';

/**
 * Grids on a born-digital page: without delimiters (matrix, one column of them, a smallmatrix inside small
 * parentheses, a grid of digits beside `A =` that no table detector may take), and a vmatrix
 * whose bars are hairlines standing apart from the display's ink.
 */
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
  // One column of text-size rows, and a display fraction without a rule (written as the matrix it prints as).
  { source: '\\[ \\begin{matrix} n \\\\ k \\end{matrix} = \\binom{n}{k} \\]', expected: '\\begin{matrix}n\\\\k\\end{matrix}=\\binom{n}{k}' },
  { source: '\\[ x = \\genfrac{}{}{0pt}{}{a}{b} \\]', expected: 'x=\\begin{matrix}a\\\\b\\end{matrix}' },
  // Not a grid: the like letters of a display fraction's numerator and denominator, its bar between them.
  {
    source: '\\[ \\log\\frac{p_2(x,y)}{p_1(x,y)}\\,dx\\,dy \\]',
    expected: '\\log\\frac{p_{2}(x,y)}{p_{1}(x,y)}dxdy',
  },
  // Not grids: align's rows (\jot apart), gather's single column, a display fraction's parts, scripts on one base.
  { source: '\\begin{gather*} a \\\\ b \\end{gather*}', expected: '\\begin{gathered}a\\\\b\\end{gathered}' },
  { source: '\\begin{align*} x &= 1 & y &= 2 \\\\ z &= 3 & w &= 4 \\end{align*}', expected: '\\begin{aligned}x&=1&y&=2\\\\z&=3&w&=4\\end{aligned}' },
  { source: '\\[ \\frac{a}{b} \\quad x_{i}^{n} \\quad T^{jk}_{lm} \\]', expected: '\\frac{a}{b}\\quad x_{i}^{n}\\quad T^{jk}_{lm}' },
];

describe('grids on a born-digital page', () => {
  const page = displaysOnPage(DISPLAYS.map(({ source }) => source));

  it.each(DISPLAYS.map(({ expected }, index) => [expected, index] as const))('reads %s', (expected, index) => {
    expect(page.displays()[index]).toBe(normaliseLatex(expected));
  });

  it('writes no table for a grid of digits in a display', () => {
    expect(page.mmd()).not.toContain('\\begin{tabular}');
  });
});
