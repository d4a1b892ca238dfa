import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';

/**
 * A function name whose first letters touch, typeset by pdflatex: at 150 dpi the `co` of `\cos`
 * after `J_{c}=` is one blob, read `\infty` surely, and the `s` beside it `S`, so the name
 * `\cos` was not seen around the blob and it was never cut (`J_{c}=\infty s(x)`). Beside a blob, a
 * letter whose capital is its small letter enlarged counts as either (image/fused-glyphs.ts).
 */
describe('symbolsFromImage: a name whose letters touch beside a case-twin letter', () => {
  const formulas = ['J_{c}=\\cos(x)', 'J_{s}(\\alpha)=\\cos((1-\\alpha)\\pi/2)'];
  const images = formulaImages(formulas, 'calculus');

  for (const dpi of [150, 300] as const) {
    it(`reads the name (${dpi} dpi)`, async () => {
      expect(await images.read(dpi)).toEqual(formulas.map(normaliseLatex));
    });
  }
});
