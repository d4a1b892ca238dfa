import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';

/**
 * Labels over extensible arrows, typeset by pdflatex: a script-size italic f stands taller than
 * the thin arrow and its tail reaches into the arrowhead's box, and was read as the arrow's
 * superscript (`A\rightarrow^{f}B`). A plain arrow between letters keeps no label.
 */
describe('symbolsFromImage: labels over arrows', () => {
  // Labels on both sides: what stands under the arrow is its lower label, not an `\\overrightarrow`'s body.
  const formulas = ['A\\xrightarrow{f}B', 'P\\xleftarrow[u]{h}Q', 'f:X\\rightarrow Y', 'A\\xrightarrow[k+1]{g}B'];
  const images = formulaImages(formulas, 'algebra');

  for (const dpi of [150, 300] as const) {
    it(`reads them as \\xrightarrow and \\xleftarrow labels (${dpi} dpi)`, async () => {
      expect(await images.read(dpi)).toEqual(formulas.map(normaliseLatex));
    });
  }
});
