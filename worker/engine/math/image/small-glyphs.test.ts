import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';
import { parseLayout } from '../layout/index.js';
import { enlarged } from './small-glyphs.js';
import { symbolsFromImage } from './symbols-from-image.js';

describe('enlarged', () => {
  it('interpolates between pixel centres and keeps the edge pixels', () => {
    const image = enlarged({ data: Uint8Array.of(0, 200, 100, 255), width: 2, height: 2 }, 2);
    expect([image.width, image.height]).toEqual([4, 4]);
    expect([...image.data.slice(0, 4)]).toEqual([0, 50, 150, 200]);
    expect([...image.data.slice(12, 16)]).toEqual([100, 139, 216, 255]);
  });
});

/**
 * pdflatex and pdftoppm at 150 dpi, cropped as the maths evaluation renders (models/eval/render.ts):
 * a fraction in an exponent is typeset at script-script size, about 10 pixels per em, below the
 * 14 the typeset classifier learnt from. Read at that size its `2` came out `z`.
 */
describe('symbolsFromImage: second-level scripts at 150 dpi', () => {
  const formulas = ['a^{\\frac{x}{2}}', '2^{\\frac{n}{2}}', 'F=e^{\\frac{-w}{LT}}'];
  const images = formulaImages(formulas, 'algebra');

  it('reads the numerator and denominator of a fraction in an exponent', async () => {
    const read = await images.read();
    expect(read).toEqual(formulas.map(normaliseLatex));
  });
});
