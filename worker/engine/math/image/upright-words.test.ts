import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';

/**
 * Words set upright in a formula (`\text{for all}`, `\text{if}`), typeset by pdflatex: the roman f
 * stands on the baseline where the maths italic f hangs below it, and was read as a superscript
 * of the letter before (`x^{f}\text{orall}`).
 */
describe('symbolsFromImage: upright words with an f', () => {
  const formulas = ['y=x\\text{ for all }x', 'f(x)=0\\text{ if }x>0'];
  const images = formulaImages(formulas, 'algebra');

  for (const dpi of [150, 300] as const) {
    it(`keeps the f on the line (${dpi} dpi)`, async () => {
      expect(await images.read(dpi)).toEqual(formulas.map(normaliseLatex));
    });
  }
});
