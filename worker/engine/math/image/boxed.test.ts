import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';

/**
 * `\boxed`, typeset by pdflatex: the frame is one ring of ink around its content, and the merge
 * step took everything inside its box for parts of one glyph (the whole formula read as `\Leftrightarrow`).
 */
describe('symbolsFromImage: a frame around a formula', () => {
  const formulas = ['\\boxed{E=mc^{2}}', 'x=\\boxed{a+b}'];
  const images = formulaImages(formulas, 'physics');

  for (const dpi of [150, 300] as const) {
    it(`reads the frame as \\boxed and what it holds as its body (${dpi} dpi)`, async () => {
      expect(await images.read(dpi)).toEqual(formulas.map(normaliseLatex));
    });
  }
});
