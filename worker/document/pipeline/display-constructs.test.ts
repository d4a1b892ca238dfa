import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseLatex } from '../../engine/math/latex-normalise.js';
import { compileLatex, type LatexPdf } from '../../../test/support/latex-pdf.js';
import { convertDocument } from './index.js';

/**
 * Displays between paragraphs whose parts lie outside the ink the page finds for the display (a
 * `\boxed` frame's rules stand clear of what it holds), far from their row (a brace's label), or
 * set a wide space apart (alignat's column pairs, a fraction after its `=`).
 */
const PROSE = 'Words of a paragraph that runs across the whole width of the text block, so that the page has prose lines.';
const DISPLAYS: Array<{ source: string; expected: string }> = [
  { source: '\\[ \\boxed{W_t-F\\subseteq V(P_i)\\subseteq W_t}. \\]', expected: '\\boxed{W_t-F\\subseteq V(P_i)\\subseteq W_t}.' },
  {
    source:
      '\\[ \\frac{d\\Gamma}{dt}=\\int_C \\mathbf{u}\\cdot d\\mathbf{r}+\\underbrace{\\int_C \\mathbf{u}\\cdot d\\left(\\frac{d\\mathbf{r}}{dt}\\right)}_{=0} \\]',
    expected:
      '\\frac{d\\Gamma}{dt}=\\int_C \\mathbf{u}\\cdot d\\mathbf{r}+\\underbrace{\\int_C \\mathbf{u}\\cdot d\\left(\\frac{d\\mathbf{r}}{dt}\\right)}_{=0}',
  },
  {
    source: '\\begin{alignat*}{2} a & = b + c, & \\qquad d & = e,\\\\ f & = g, & \\qquad h & = k + l. \\end{alignat*}',
    expected: '\\begin{aligned}a & = b + c, & d & = e,\\\\ f & = g, & h & = k + l.\\end{aligned}',
  },
  // A continued fraction of digits alone: nothing but its `x =` seeds the display, its bars stand a thick space away.
  { source: '\\[ x = \\cfrac{1}{1 + \\cfrac{1}{2 + \\cfrac{1}{3}}} \\]', expected: 'x=\\frac{1}{1+\\frac{1}{2+\\frac{1}{3}}}' },
  // \tbinom: parentheses of the text's size around two rows set in script size.
  { source: '\\[ \\binom{n}{k} + \\tbinom{n}{k} \\]', expected: '\\binom{n}{k}+\\binom{n}{k}' },
  // Pieces centred over or under a symbol, where a script would stand beside it; an arrow's label of script size.
  {
    source: '\\[ \\overset{*}{X} + \\underset{n}{Y} \\overset{\\mathrm{def}}{=} A \\xrightarrow{f} B \\]',
    expected: '\\overset{*}{X}+\\underset{n}{Y}\\overset{\\mathrm{def}}{=}A\\xrightarrow{f}B',
  },
  // Scripts in a row of bases stand beside them, over no neighbour.
  { source: '\\[ E^{2}=p^{2}c^{2}+m_{0}^{2}c^{4} \\]', expected: 'E^{2}=p^{2}c^{2}+m_{0}^{2}c^{4}' },
];

let pdf: LatexPdf;
let mmd: string;

beforeAll(async () => {
  pdf = await compileLatex([PROSE, ...DISPLAYS.flatMap(({ source }) => [source, PROSE])].join('\n'));
  ({ mmd } = await convertDocument(pdf.path, { idiomaticEqnArrays: true }));
}, 60_000);

afterAll(() => pdf?.cleanup());

describe('display constructs on a born-digital page', () => {
  it.each(DISPLAYS.map(({ expected }, index) => [expected, index] as const))('reads %s', (expected, index) => {
    const found = [...mmd.matchAll(/\\\[\n(.*?)\n\\\]/gu)].map((match) => normaliseLatex(match[1]!));
    expect(found[index]).toBe(normaliseLatex(expected));
  });
});
