import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';
import { parseLayout } from '../layout/index.js';
import { symbolsFromImage } from './symbols-from-image.js';

/**
 * pdflatex at 150 dpi (models/eval/render.ts): the long arrow of `\xrightarrow{\Delta}` is one blob
 * the classifier is unsure of, and a cut through its shaft left a bar it read as a tilde beside a
 * short arrow. A cut that leaves a bar cut a stroke, not the joint of two touching glyphs.
 */
describe('splitTouching on a pdflatex raster', () => {
  const formulas = ['\\text{CaCO}_{3}\\xrightarrow{\\Delta}\\text{CaO}+\\text{CO}_{2}', '2\\text{HgO}\\xrightarrow{\\Delta}2\\text{Hg}+O_{2}'];
  const images = formulaImages(formulas, 'chemistry');

  it('keeps a long arrow whole', async () => {
    const read = await images.read();
    expect(read).toEqual(formulas.map(normaliseLatex));
  });
});
