import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';

/**
 * `\ldots` after a comma, typeset by pdflatex: its dots stand low, beside a comma whose tail hangs
 * lower still, and were read as the comma's subscript (`x_{2},_{\cdot\cdot\cdot}`). Punctuation
 * takes no scripts (layout/baseline.ts); a comma inside a subscript stays there.
 */
describe('symbolsFromImage: dots on the baseline after a comma', () => {
  const formulas = ['x_{1},x_{2},\\ldots,x_{n}', 'f(x_{1},\\ldots,x_{n})', 'a_{i,j}+b_{1,2}'];
  const images = formulaImages(formulas, 'algebra');

  for (const dpi of [150, 300] as const) {
    it(`reads them as \\ldots on the line (${dpi} dpi)`, async () => {
      expect(await images.read(dpi)).toEqual(formulas.map(normaliseLatex));
    });
  }
});
