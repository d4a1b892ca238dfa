import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseLatex } from '../../engine/math/latex-normalise.js';
import { compileLatex, type LatexPdf } from '../../../test/support/latex-pdf.js';
import { convertDocument } from './index.js';

/**
 * Displays between paragraphs whose parts lie outside the ink the page finds for the display (a
 * `\boxed` frame's rules stand clear of what it holds) or far from their row (a brace's label).
 */
const PROSE = 'Words of a paragraph that runs across the whole width of the text block, so that the page has prose lines.';
const DISPLAYS = [
  '\\boxed{W_t-F\\subseteq V(P_i)\\subseteq W_t}.',
  // The label under a brace stands apart from the row as far as a row of its own would.
  '\\frac{d\\Gamma}{dt}=\\int_C \\mathbf{u}\\cdot d\\mathbf{r}+\\underbrace{\\int_C \\mathbf{u}\\cdot d\\left(\\frac{d\\mathbf{r}}{dt}\\right)}_{=0}',
];

let pdf: LatexPdf;
let mmd: string;

beforeAll(async () => {
  pdf = await compileLatex([PROSE, ...DISPLAYS.flatMap((display) => [`\\[ ${display} \\]`, PROSE])].join('\n'));
  ({ mmd } = await convertDocument(pdf.path));
}, 60_000);

afterAll(() => pdf?.cleanup());

describe('display constructs on a born-digital page', () => {
  it.each(DISPLAYS.map((display, index) => [display, index] as const))('reads %s', (display, index) => {
    const found = [...mmd.matchAll(/\\\[\n(.*?)\n\\\]/gu)].map((match) => normaliseLatex(match[1]!));
    expect(found[index]).toBe(normaliseLatex(display));
  });
});
