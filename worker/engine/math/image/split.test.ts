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

/**
 * The same raster: the arrow of a `\vec` touches the `|` after its letter, one blob of three glyphs.
 * The `|` is 2 px wide, inside the margin a cut keeps from a blob's edges, and the cut beside it
 * leaves the arrow and its letter apart in one piece, read as neither; both are taken as they are
 * (a full-height stroke at the edge, the stacked parts of a piece).
 */
describe('splitTouching: a vector accent touching a bar', () => {
  const formulas = ['|\\vec{x}-\\vec{y}|', '|\\vec{r}|=r'];
  const images = formulaImages(formulas, 'linear-algebra');

  it('cuts the bar off and reads the accent over its letter', async () => {
    const read = await images.read();
    expect(read).toEqual(formulas.map(normaliseLatex));
  });
});
