import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';
import { parseLayout } from '../layout/index.js';
import { symbolsFromImage } from './symbols-from-image.js';

/**
 * pdflatex and pdftoppm at 150 dpi, as the maths evaluation renders (models/eval/render.ts). The
 * first three have letters the raster fuses into one blob the classifier reads surely as one wrong
 * symbol (`ar` as m, `os` and `ex` as ∞, `an` as an arrow); the last two have sure m's and n's
 * beside letters that must stay whole.
 */
describe('symbolsFromImage: glyphs fused at 150 dpi', () => {
  const fused = ['\\mathrm{Var}(X)=\\sigma^{2}', 'y=\\cos x+\\exp(t)', '\\mathrm{rank}(M)=2'];
  const whole = ['m^{2}+mn=\\lim_{n\\to\\infty}a_{n}', '\\max(a,b)\\geq\\min(a,b)'];
  const images = formulaImages([...fused, ...whole], 'algebra');

  it('cuts fused letters of a known word apart and leaves single letters whole', async () => {
    const read = await images.read();
    expect(read).toEqual([...fused, ...whole].map(normaliseLatex));
  });
});
