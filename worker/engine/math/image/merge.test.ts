import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';
import { parseLayout } from '../layout/index.js';
import type { InkMask } from './binarise.js';
import { connectedComponents } from './components.js';
import { mergeComponents } from './merge.js';
import { symbolsFromImage } from './symbols-from-image.js';

/** A mask with the given rectangles of ink ([x0, y0, x1, y1), exclusive ends). */
function mask(width: number, height: number, rects: [number, number, number, number][]): InkMask {
  const data = new Uint8Array(width * height);
  for (const [x0, y0, x1, y1] of rects) for (let y = y0; y < y1; y++) data.fill(1, y * width + x0, y * width + x1);
  return { data, width, height };
}

describe('mergeComponents', () => {
  it('joins an i with its tittle when the image was enlarged: a 1×2 pixel dot at 150 dpi becomes a 3×5 blob at twice the size', () => {
    // The stem of a subscript i read at twice its size, and its dot two pixels above it.
    const groups = mergeComponents(
      connectedComponents(
        mask(30, 40, [
          [10, 14, 15, 32],
          [11, 7, 14, 12],
        ]),
      ),
    );
    expect(groups).toHaveLength(1);
    expect(groups[0]!.parts).toHaveLength(2);
  });
});

/**
 * pdflatex at 150 dpi (models/eval/render.ts): the tittle of the i in `E_{i}` inside a superscript
 * is a single grey pixel, smaller than the specks of noise the merge step drops; without it the
 * stem reads as a dotless `\iota`.
 */
describe('mergeComponents on a pdflatex raster', () => {
  const formulas = ['W=e^{-\\alpha E_{i}}', 'Q=e^{-kE_{i}}'];
  const images = formulaImages(formulas, 'physics');

  it('keeps a one-pixel tittle over a stem and reads the i', async () => {
    const read = await images.read();
    expect(read).toEqual(formulas.map(normaliseLatex));
  });
});
