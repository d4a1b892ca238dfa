import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';

/**
 * Calligraphic, fraktur and blackboard letters are classes of the image classifier of their own,
 * trained on MathJax's renders; these are typeset by pdflatex (Computer Modern, amssymb's alphabets)
 * at 150 and 300 dpi, a renderer the classifier never saw. Each alphabet comes with its plain
 * letters beside it, which must stay plain.
 */
describe('symbolsFromImage: letters of the other maths alphabets', () => {
  const styled = [
    '\\mathcal{L}=T-V',
    'f:\\mathcal{X}\\to\\mathbb{R}',
    '\\mathbb{E}[X]=\\mu',
    '\\mathcal{O}(n\\log n)',
    '\\mathfrak{g}=\\mathfrak{h}+\\mathfrak{n}',
  ];
  const plain = ['L=T-V', 'E[X]=\\mu', 'O(n\\log n)', 'g=h+n'];
  const images = formulaImages([...styled, ...plain], 'algebra');

  for (const dpi of [150, 300] as const) {
    it(`reads each letter in its alphabet and leaves plain letters plain (${dpi} dpi)`, async () => {
      expect(await images.read(dpi)).toEqual([...styled, ...plain].map(normaliseLatex));
    });
  }
});
