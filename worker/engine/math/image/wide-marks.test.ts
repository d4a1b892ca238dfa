import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';

/**
 * Wide marks typeset by pdflatex: the classifier, seeing a brace or a wide hat squeezed into a
 * square crop, read braces as arrows (`\overbrace{a+b+c}^{n}` → `\overleftarrow{a+b+c}^{n}`) and
 * wide hats and tildes as bars or arrows; at 300 dpi an underbrace also parts at its tip. An over
 * arrow's head touches the glyph under it, and the two read as one letter (`m`, `W`; fused-bars.ts).
 */
describe('symbolsFromImage: braces and wide accents by their shape', () => {
  const formulas = [
    '\\overbrace{a+b+c}^{n}=\\underbrace{x+y}_{2}',
    '\\underbrace{1+1+1}_{n}=n',
    // Short braces: TeX's least brace, about 3.3 times as wide as tall; at 300 dpi a curled end parts from the rest.
    '\\overbrace{ab}^{2}+\\underbrace{x+y}_{m}',
    '\\widehat{xy}+\\widetilde{ab}=\\widehat{ABC}',
    // Arrows, bars and a lone tilde keep their reads; an arrow's head that touches the glyph under it is parted from it.
    '\\overleftarrow{AB}=\\overline{CD}',
    '\\overrightarrow{PQ}=\\vec{v}',
    'a\\sim b',
  ];
  const images = formulaImages(formulas);

  for (const dpi of [150, 300] as const) {
    it(`reads braces with their labels and wide hats and tildes over what they span (${dpi} dpi)`, async () => {
      expect(await images.read(dpi)).toEqual(formulas.map(normaliseLatex));
    });
  }
});
