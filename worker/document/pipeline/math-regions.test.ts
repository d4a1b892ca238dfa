import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AS_RECOGNISED, compileLatex, type LatexPdf } from '../../../test/support/latex-pdf.js';
import { type MathSymbol, RADICAL, RULE } from '../../engine/math/types.js';
import { convertDocument, type DocumentResult } from './index.js';
import type { LineEntry } from '../../../page/render/lines-json.js';
import { DISPLAYS, MATH_PAGE_BODY } from '../../../test/support/math-page-fixture.js';

/**
 * Which glyphs and rules reach the maths parser for each region of a pdflatex page. The parser
 * here writes back the tokens it was given, so the MMD shows exactly how the page was cut up.
 */

let pdf: LatexPdf;
const calls: MathSymbol[][] = [];
const echo = (symbols: MathSymbol[]) => {
  calls.push(symbols);
  return { latex: `<${symbols.map((s) => s.latex).join(' ')}>`, confidence: 1, boxes: [] };
};
let plain: DocumentResult;
let tagged: DocumentResult;

beforeAll(async () => {
  pdf = await compileLatex(MATH_PAGE_BODY);
  plain = await convertDocument(pdf.path, AS_RECOGNISED, { parseMath: echo });
  tagged = await convertDocument(pdf.path, { ...AS_RECOGNISED, includeEquationTags: true }, { parseMath: echo });
}, 60_000);

afterAll(() => pdf?.cleanup());

/** The token lists of the page's display equations, in order. */
function displays(r: DocumentResult): string[][] {
  return [...r.mmd.matchAll(/\\\[\n<(.*?)>( \\tag\{[^}]*\})?\n\\\]/g)].map((m) => m[1].split(' '));
}

describe('maths regions on a born-digital page', () => {
  it('hands each display equation to the parser whole: stacked lines, rules and tall glyphs together', () => {
    const found = displays(plain);
    expect(found).toHaveLength(DISPLAYS.length);
    const [roots, sum, integral, matrix, cases] = found;
    // The fraction bar stays a rule; the radical's vinculum is merged into the radical.
    expect(roots.filter((t) => t === RULE)).toHaveLength(1);
    expect(roots).toContain(RADICAL);
    expect([...roots].sort()).toEqual(['x', '=', '-', 'b', '\\pm', RADICAL, 'b', '2', '-', '4', 'a', 'c', RULE, '2', 'a'].sort());
    expect(sum).toEqual(expect.arrayContaining(['\\sum', 'n', 'i', '=', '1', '6', RULE]));
    expect(integral).toEqual(expect.arrayContaining(['\\int', '0', '\\infty', RADICAL, '\\pi']));
    expect(matrix.filter((t) => t === '(' || t === ')')).toHaveLength(2);
    expect(cases).toEqual(expect.arrayContaining(['\\{', 'o', 't', 'h', 'e', 'r', 'w', 'i', 's']));
  });

  it('keeps the words around the displays out of the maths', () => {
    for (const tokens of displays(plain)) expect(tokens.join('')).not.toMatch(/roots|Gaussian|matrix|accents/);
    expect(plain.mmd).toContain('The roots of the quadratic are');
    expect(plain.mmd).toContain('to end the page.');
  });

  it('sends inline runs through the parser too, keeping their delimiters', () => {
    expect(plain.mmd).toMatch(
      /^Let \\\( <x 2 \+ y i> \\\) and \\\( <\\alpha \\leq \\beta> \\\) hold for \\\( <f \\prime \( x \)> \\\) in \\\( <R> \\\), as assumed\./,
    );
  });

  it('writes the equation number as \\tag only when include_equation_tags is on, and never as text', () => {
    expect(tagged.mmd).toContain(' \\tag{1}\n\\]');
    expect(tagged.mmd.match(/\\tag/g)).toHaveLength(1);
    expect(plain.mmd).not.toContain('\\tag');
    expect(plain.mmd).not.toMatch(/\(1\)/);
    // The number is not one of the display's symbols.
    const sum = displays(plain)[1];
    expect(sum.filter((t) => t === '(')).toHaveLength(2);
  });

  it('gives each display one math line in lines.json whose region spans its stacked ink', () => {
    const lines = plain.linesJson.pages[0].lines as LineEntry[];
    const maths = lines.filter((l) => l.type === 'math');
    expect(maths).toHaveLength(DISPLAYS.length);
    // Fractions, limits and matrices are taller than two text lines.
    for (const i of [0, 1, 3, 4]) expect(maths[i].region.height, DISPLAYS[i]).toBeGreaterThan(20);
    for (let i = 1; i < maths.length; i++) expect(maths[i].region.top_left_y).toBeGreaterThan(maths[i - 1].region.top_left_y + maths[i - 1].region.height);
    const mmdLines = plain.linesMmdJson.pages[0].lines as Array<LineEntry & { mmd_start: number; mmd_end: number }>;
    for (const l of mmdLines) expect(plain.mmd.slice(l.mmd_start, l.mmd_end)).toBe(l.text);
  });
});
