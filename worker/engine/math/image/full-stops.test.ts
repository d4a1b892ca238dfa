import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';

/**
 * A display's full stop after a script, typeset by pdflatex: the dot borrows its size from the
 * script beside it, so it was read as the script's `\cdot` (`n_{p\cdot}`). One standing on the
 * base's baseline closes the formula (layout/baseline.ts); a decimal point or a `\cdot` inside a
 * script stays there.
 */
describe('symbolsFromImage: a full stop after a script', () => {
  const formulas = ['n=n_{1}+\\cdots+n_{p}.', 'Q_{X}=\\bigcup_{Y\\geq X}P_{Y}.', 'x^{2.5}+y_{1.5}', 'a_{i\\cdot j}=x_{i}\\cdot y'];
  const images = formulaImages(formulas, 'algebra');

  for (const dpi of [150, 300] as const) {
    it(`reads it on the line and keeps dots inside scripts (${dpi} dpi)`, async () => {
      expect(await images.read(dpi)).toEqual(formulas.map(normaliseLatex));
    });
  }
});
