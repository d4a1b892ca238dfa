import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';

/**
 * Dots in matrices, typeset by pdflatex: `\vdots` (three dots the merge step joins as it joins a
 * colon's, read as ÷ before), `\ddots` (three dots stepping down, read as scripts of each other)
 * and a cell's `\cdots` with no letter beside it to measure its spacing by (three `\cdot` before).
 */
describe('symbolsFromImage: dots in matrices', () => {
  const formulas = [
    '\\begin{pmatrix}a_{1}&\\cdots&a_{n}\\\\\\vdots&\\ddots&\\vdots\\\\b_{1}&\\cdots&b_{n}\\end{pmatrix}',
    '\\begin{bmatrix}1&0\\\\\\vdots&\\vdots\\\\0&1\\end{bmatrix}',
  ];
  const images = formulaImages(formulas, 'linear-algebra');

  for (const dpi of [150, 300] as const) {
    it(`reads \\vdots, \\ddots and \\cdots (${dpi} dpi)`, async () => {
      expect(await images.read(dpi)).toEqual(formulas.map(normaliseLatex));
    });
  }
});
