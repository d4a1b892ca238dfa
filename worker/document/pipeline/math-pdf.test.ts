import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseLatex } from '../../engine/math/latex-normalise.js';
import { compileLatex, type LatexPdf } from '../../../test/support/latex-pdf.js';
import { idiomaticSpelling } from '../../../page/render/eqn-arrays.js';
import { convertDocument, type DocumentResult } from './index.js';
import { DISPLAYS, MATH_PAGE_BODY, NUMBERED_DISPLAY } from '../../../test/support/math-page-fixture.js';

/** A pdflatex page with inline and display maths, converted with the real layout parser. */

let pdf: LatexPdf;
let result: DocumentResult;
let tagged: DocumentResult;

beforeAll(async () => {
  pdf = await compileLatex(MATH_PAGE_BODY);
  result = await convertDocument(pdf.path);
  tagged = await convertDocument(pdf.path, { includeEquationTags: true, mathDisplayDelimiters: ['$$', '$$'] });
}, 60_000);

afterAll(() => pdf?.cleanup());

const displays = (mmd: string, [open, close]: [string, string]) => {
  const re = new RegExp(`${open.replace(/[$[\\\]]/g, '\\$&')}\\n(.*?)\\n${close.replace(/[$[\\\]]/g, '\\$&')}`, 'g');
  return [...mmd.matchAll(re)].map((m) => m[1]);
};

describe('maths in a born-digital PDF', () => {
  it.each(DISPLAYS.map((d, i) => [d, i] as const))('writes the display %s between \\[ \\]', (source, i) => {
    const found = displays(result.mmd, ['\\[', '\\]']);
    expect(found).toHaveLength(DISPLAYS.length);
    // The default spelling writes cases as an array (4.2 rule 6).
    expect(normaliseLatex(idiomaticSpelling(found[i]!))).toBe(normaliseLatex(source));
  });

  it('writes cases as a braced array unless idiomatic_eqn_arrays (or include_equation_tags) asks for it', () => {
    const cases = DISPLAYS.findIndex((d) => d.includes('{cases}'));
    expect(displays(result.mmd, ['\\[', '\\]'])[cases]).toMatch(/^f\(x\)=\\left\\\{\\begin\{array\}\{ll\}.*\\end\{array\}\\right\.$/);
    expect(displays(tagged.mmd, ['$$', '$$'])[cases]).toContain('\\begin{cases}');
  });

  const inlineRuns = () => [...result.mmd.split('\n\n')[0].matchAll(/\\\((.*?)\\\)/g)].map((m) => normaliseLatex(m[1]));

  it('writes inline maths in \\( \\) inside the paragraph', () => {
    expect(inlineRuns()).toHaveLength(4);
    expect(inlineRuns().slice(0, 3)).toEqual(['x^{2}+y_{i}', '\\alpha\\leq\\beta', "f'(x)"].map(normaliseLatex));
  });

  it('writes the blackboard R inline as \\mathbb{R}', () => {
    expect(inlineRuns()[3]).toBe(normaliseLatex('\\mathbb{R}'));
  });

  it("tags the numbered equation with include_equation_tags and the caller's delimiters", () => {
    const found = displays(tagged.mmd, ['$$', '$$']);
    expect(found).toHaveLength(DISPLAYS.length);
    expect(found[NUMBERED_DISPLAY]).toMatch(/ \\tag\{1\}$/);
    expect(normaliseLatex(found[NUMBERED_DISPLAY].replace(/ \\tag\{1\}$/, ''))).toBe(normaliseLatex(DISPLAYS[NUMBERED_DISPLAY]));
  });
});
