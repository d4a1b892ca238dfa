import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';

/**
 * Small marks over a symbol and grown double bars, typeset by pdflatex. An image gives a star or a
 * circle no known size, so the parser left it to the scripts (`\overset{*}{X}` → `X^{*}`; stacks.ts
 * now stacks a mark of unknown size that lies over the symbol's own width, centred on it); at
 * 300 dpi `\mathring`'s ring reads as `\circ` and is told from `\overset{\circ}` by its size and
 * gap (accents.ts); `\left\|` around a fraction is two tall strokes, each read as `|` (matrix.ts).
 */
describe('symbolsFromImage: marks over symbols and grown double bars', () => {
  const formulas = [
    '\\overset{*}{X}+\\overset{\\circ}{A}=a^{*}',
    '\\left\\|\\frac{a}{b}\\right\\|=\\left|\\frac{a}{b}\\right|',
    'f\\circ g+X^{\\circ}',
    // A superscript over a subscript stands over a script-size base: no stack.
    '\\Delta H_{f}^{\\circ}',
    // A relation tells no size in an image (its bars are rules): it stands at the formula's size.
    'x\\overset{\\text{def}}{=}y',
  ];
  const images = formulaImages(formulas);

  for (const dpi of [150, 300] as const) {
    it(`stacks centred marks, leaves superscripts beside their base and joins tall double bars (${dpi} dpi)`, async () => {
      expect(await images.read(dpi)).toEqual(formulas.map(normaliseLatex));
    });
  }

  const ring = formulaImages(['\\mathring{A}+\\overset{\\circ}{x}']);
  it('reads a ring accent apart from a circle set over a letter (300 dpi)', async () => {
    expect(await ring.read(300)).toEqual([normaliseLatex('\\mathring{A}+\\overset{\\circ}{x}')]);
  });
});
