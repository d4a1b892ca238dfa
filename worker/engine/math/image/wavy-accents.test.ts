import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';
import { parseLayout } from '../layout/index.js';
import { symbolsFromImage } from './symbols-from-image.js';

/**
 * pdflatex and pdftoppm at 150 dpi, as the maths evaluation renders (models/eval/render.ts): each
 * tilde and hat binarises as flat as a bar and was read `\bar`; the bars, the minus and the fraction
 * bar beside them must stay rules.
 */
describe('symbolsFromImage: tildes and hats at 150 dpi', () => {
  const formulas = ['\\tilde{p}+\\hat{C}=\\bar{k}', 'y=\\bar{x}-\\tilde{V}\\frac{a}{b}', '\\hat{\\xi}^{2}+\\tilde{\\theta}_{1}'];
  const images = formulaImages(formulas, 'algebra');

  it('reads a tilde or a hat the raster drew flat as that accent, and a bar as a bar', async () => {
    const read = await images.read();
    expect(read).toEqual(formulas.map(normaliseLatex));
  });
});
