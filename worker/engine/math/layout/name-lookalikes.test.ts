import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { symbolsFromImage } from '../image/symbols-from-image.js';
import { normaliseLatex } from '../latex-normalise.js';
import type { MathSymbol } from '../types.js';
import { parseLayout } from './index.js';

/** pdflatex's `\log_2 p` and `(f\circ g)` at 150 dpi, boxes in pixels, as the image front end reads them. */
const at = (latex: string, x0: number, y0: number, x1: number, y1: number, more: Partial<MathSymbol> = {}): MathSymbol => ({
  latex,
  box: { x0, y0, x1, y1 },
  confidence: 0.95,
  ...more,
});
const ring = (x0: number, x1: number) =>
  at('\\circ', x0, 15, x1, 25, {
    confidence: 0.48,
    alternatives: [
      { latex: 'o', confidence: 0.28 },
      { latex: 'O', confidence: 0.11 },
    ],
  });

describe('parseLayout: look-alikes inside function names', () => {
  it('reads the ring between an upright l and g as the o of \\log', () => {
    const symbols = [
      at('l', 126, 10, 131, 25, { style: 'upright' }),
      ring(132, 142),
      at('g', 142, 15, 152, 30, { style: 'upright' }),
      at('2', 153, 20, 160, 30),
    ];
    expect(parseLayout(symbols).latex).toBe('\\log_{2}');
  });

  it('keeps a ring between letters that spell no name (f\\circ g)', () => {
    const symbols = [at('f', 100, 10, 110, 30), ring(114, 124), at('g', 128, 15, 138, 30)];
    expect(parseLayout(symbols).latex).toBe('f\\circ g');
  });
});

/**
 * pdflatex at 150 dpi (models/eval/render.ts): the o of a `\cos` in a matrix, read as `\circ` first,
 * has the glyphs of the other row between it and its neighbours in x; they are no break in the word.
 */
describe('parseLayout: function names in a matrix typeset by pdflatex', () => {
  const matrices = ['\\begin{pmatrix}\\cos\\alpha&0\\\\0&\\cos\\beta\\end{pmatrix}', '\\begin{pmatrix}\\cosh x&\\sinh x\\\\\\sinh x&\\cosh x\\end{pmatrix}'];
  const images = formulaImages(matrices, 'linear-algebra');

  it('reads the ring between c and s as the o of \\cos across the rows', async () => {
    const read = await images.read();
    expect(read).toEqual(matrices.map(normaliseLatex));
  });
});
