import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';

/**
 * `\binom` against a two-row pmatrix, typeset by pdflatex: the same parentheses, rows 1.36 against
 * 1.2 em apart. Judged in em, a 300 dpi letter's em (about 7 % over) put `\binom{n}{k}`'s rows at
 * 1.26 em and read it as a pmatrix; judged against the parentheses' height (matrix.ts isBinomial)
 * both resolutions read both. `\\tbinom` and smallmatrix in parentheses of the text's size: their
 * rows' size is judged against the parentheses too (an image's em of a formula that is mostly script
 * is the script's), and smallmatrix's columns stand a thick space apart.
 */
describe('symbolsFromImage: binomials and column vectors', () => {
  const formulas = [
    '\\binom{n}{k}+\\binom{a}{b}',
    '\\begin{pmatrix}n\\\\k\\end{pmatrix}+\\begin{pmatrix}1\\\\2\\end{pmatrix}',
    '\\binom{1}{2}',
    // Parentheses of the text's size around rows of script size, in a formula whose other glyphs are few.
    'a+\\tbinom{n+1}{2}x',
    '\\left(\\begin{smallmatrix}a&b\\\\c&d\\end{smallmatrix}\\right)+1',
  ];
  const images = formulaImages(formulas);

  for (const dpi of [150, 300] as const) {
    it(`tells a binomial from a column vector (${dpi} dpi)`, async () => {
      expect(await images.read(dpi)).toEqual(formulas.map(normaliseLatex));
    });
  }
});
