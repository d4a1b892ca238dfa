import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';
import { parseLayout } from '../layout/index.js';
import { symbolsFromImage } from './symbols-from-image.js';

/**
 * pdflatex and pdftoppm, as the maths evaluation renders (models/eval/render.ts). A fraction inside
 * a script (or a radicand) sets its bar a pixel from its parts, and the raster joins them: at 150
 * dpi the bar of `\frac{u^2}{c^2}` takes the 2 of the denominator, at 300 dpi the bar of
 * `\frac{(t-m)^2}{2a^2}` the denominator's superscript. A radical's vinculum takes the superscript
 * set close under it (`\sqrt{k^2-4m}`'s 2), and the blob, no longer radical-shaped, took in the
 * whole radicand. The reaction arrows must stay whole: a
 * harpoon is a bar with a barb, and the classifier is sure of it.
 */
describe('symbolsFromImage: fraction bars fused with their parts', () => {
  const cases: Array<{ latex: string; dpi: 150 | 300 }> = [
    { latex: 'v=\\frac{1}{\\sqrt{1-\\frac{u^{2}}{c^{2}}}}', dpi: 150 },
    { latex: 'g(t)=e^{-\\frac{(t-m)^{2}}{2a^{2}}}', dpi: 300 },
    { latex: 'y=\\frac{-k\\pm\\sqrt{k^{2}-4m}}{2}', dpi: 150 },
    { latex: 't=\\frac{-b-\\sqrt{b^{2}-4ac}}{2a}', dpi: 150 },
    { latex: 'N_{2}+3H_{2}\\rightleftharpoons2\\text{NH}_{3}', dpi: 150 },
    { latex: 'N_{2}+3H_{2}\\rightleftharpoons2\\text{NH}_{3}', dpi: 300 },
  ];
  const images = formulaImages(
    cases.map(({ latex }) => latex),
    'algebra',
  );

  it('takes the bar or vinculum off the glyphs it touches and reads the fraction or radical', async () => {
    const read = await images.read(cases.map(({ dpi }) => dpi));
    expect(read).toEqual(cases.map(({ latex }) => normaliseLatex(latex)));
  });
});
