import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';

/**
 * `\substack` limits typeset by pdflatex: a script-size `\leq`'s bar lies as near the next row's
 * glyphs as its own `<`, so the merge step left it a bar and the parser built `\frac{<}{<}`
 * (`\sum_{0_{0^{\frac{<}{<}}}…}`). Fraction bars under a relation inside a wider numerator stay bars.
 * Under a letter such a bar is an `\underline` (the pair read `w` at 0.25, and the next symbol
 * became its superscript: `w^{+a}`).
 */
describe('symbolsFromImage: a relation or a letter and the bar under it', () => {
  const formulas = [
    '\\sum_{\\substack{0\\le i\\le m\\\\0<j<n}}P(i,j)',
    '\\prod_{\\substack{i\\ge 1\\\\j\\ge 2}}x_{ij}',
    '\\frac{a<b}{c}\\le\\frac{1}{2}',
    '\\overline{z}+\\underline{w}+a\\subseteq\\underline{AB}',
  ];
  const images = formulaImages(formulas);

  for (const dpi of [150, 300] as const) {
    it(`reads the or-equal relations of stacked limits, and underlines (${dpi} dpi)`, async () => {
      expect(await images.read(dpi)).toEqual(formulas.map(normaliseLatex));
    });
  }
});
