import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';

/**
 * Grids without delimiters and double-barred ones in formula images, typeset by pdflatex. Bare
 * grids were read only from a PDF's exact baselines, so an image's `matrix` came out as `gathered`
 * rows with its cells run together (`ab \\ cd`) and a `smallmatrix` as scripts; a `Vmatrix`'s
 * strokes were four `|`s around scripts (`||_{v}^{u}||`).
 */
describe('symbolsFromImage + parseLayout: bare and double-barred grids', () => {
  const formulas = [
    '\\begin{matrix}a&b\\\\c&d\\end{matrix}',
    'A=\\begin{matrix}1&0&0\\\\0&1&0\\\\0&0&1\\end{matrix}',
    'x+\\begin{smallmatrix}1&0\\\\0&1\\end{smallmatrix}',
    'A=(\\begin{smallmatrix}a&b\\\\c&d\\end{smallmatrix})',
    '\\begin{Bmatrix}1&2\\\\3&4\\end{Bmatrix}\\neq\\begin{Vmatrix}u\\\\v\\end{Vmatrix}',
    '\\begin{matrix}n\\\\k\\end{matrix}+\\begin{bmatrix}n\\\\k\\end{bmatrix}=0',
    // Rows farther apart than an array's stay rows, and scripts stay scripts.
    '\\begin{gathered}1\\quad 2\\\\3\\quad 4\\end{gathered}',
    'x_{1}^{2}+y_{1}^{2}',
  ];
  const images = formulaImages(formulas);

  for (const dpi of [150, 300] as const) {
    it(`reads matrix, smallmatrix and Vmatrix cells as grids (${dpi} dpi)`, async () => {
      expect(await images.read(dpi)).toEqual(formulas.map(normaliseLatex));
    });
  }
});
