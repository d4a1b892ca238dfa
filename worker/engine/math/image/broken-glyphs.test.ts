import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';

/**
 * pdflatex and pdftoppm at 150 dpi (models/eval/render.ts). Where the display falls on the pixel
 * grid (the trailing space moves it), the script-size `h` under `\lim` loses the hairline between
 * its stem and arch: a stem read as a prime and an arch read as `\iota`, parsed as
 * `\lim_{\prime^{\iota\rightarrow0}}`. Both crops read right once the two pieces are joined.
 */
describe('joinBroken: a script letter broken in two by the raster', () => {
  const formulas = ["g'(t)=\\lim_{h\\to 0}\\frac{g(t+h)-g(t)}{h}\\hspace{1.2pt}", "g'(t)=\\lim_{h\\to 0}\\frac{g(t+h)-g(t)}{h}\\hspace{2.1pt}"];
  const images = formulaImages(formulas, 'calculus');

  it('reads the stem and the arch as one h', async () => {
    const read = await images.read();
    expect(read).toEqual(formulas.map(normaliseLatex));
  });
});
