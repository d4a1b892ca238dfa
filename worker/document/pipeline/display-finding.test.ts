import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AS_RECOGNISED, compileLatex, type LatexPdf } from '../../../test/support/latex-pdf.js';
import { convertDocument, type DocumentResult } from './index.js';
import { groupDisplayMath, isDisplayLine } from './math-regions.js';
import { makeLine, type Glyph } from './text-layer.js';

/**
 * Displays the page layout alone would miss or cut, on a pdflatex page: a display as wide as the
 * text, centred, with a word between two formulas; align rows that are text after their relation;
 * a CJK label over an align (a coursework's `解.`) stays prose.
 */

const PAGE = String.raw`The two integrals of the theorem are respectively equal to
\[
J_c(\alpha)=\cos((1-\alpha)\pi/2)\,\Gamma(1-\alpha)\quad\text{and}\quad J_s(\alpha)=\sin((1-\alpha)\pi/2)\,\Gamma(1-\alpha),
\]
where the gamma function is the one of the complex variable. If you do not like the looks of
\begin{align*}
\int \text{A very long expression} &\le \text{a shorter one}\\
&\le \text{another short one}\\
&= \text{the final expression}
\end{align*}
perhaps you can break up the computations into smaller pieces.`;

let pdf: LatexPdf;
let result: DocumentResult;

beforeAll(async () => {
  pdf = await compileLatex(PAGE);
  result = await convertDocument(pdf.path, AS_RECOGNISED);
}, 60_000);

afterAll(async () => {
  await pdf?.cleanup();
});

const displays = (mmd: string) => [...mmd.matchAll(/\\\[\n([\s\S]*?)\n\\\]/gu)].map((m) => m[1]!);

describe('finding displays on a born-digital page', () => {
  it('keeps a display as wide as the text, centred, a display with its word', () => {
    const wide = displays(result.mmd).find((d) => d.includes('J_{s}'));
    expect(wide).toBeDefined();
    expect(wide).toContain('J_{c}(\\alpha)=\\cos');
    expect(wide).toMatch(/\\text\{and\}/);
  });

  it('keeps the rows of an align whose rows are text after the relation, the words whole', () => {
    const align = displays(result.mmd).find((d) => d.includes('\\int'));
    expect(align).toMatch(/^\\begin\{aligned\}/);
    expect(align!.split('\\\\')).toHaveLength(3);
    expect(align).toMatch(/& =\\text\{the\}/);
    // An upright letter a word space from a word is text, and a ligature (fi) its letters.
    expect(align).toContain('\\int\\text{A very}');
    expect(align).toContain('\\leq\\text{a shorter}');
    expect(align).toContain('\\text{final}');
  });

  it('keeps a line of CJK text over an align out of its rows', () => {
    // thucoursework's solution: `解.` at the left margin, the align's rows under it, 10 pt, 14 pt apart.
    const run = (text: string, x: number, base: number, mathFont: boolean): Glyph[] =>
      [...text].map((ch, i) => ({ ch, x: x + 6 * i, w: ch === ' ' ? 3 : 5.5, base, size: 10, font: mathFont ? 'CMMI10' : 'SimSun', bold: false, mathFont }));
    const prose = run('the exercise asks for the divergence of the two densities below, and how they differ', 72, 86, false);
    const lines = [prose, run('解.', 72, 100, false), run('p(x,y)=q', 90, 114, true), run('r(x,y)=s', 90, 128, true)].map((g) => makeLine(g)!);
    const grouped = groupDisplayMath(lines, { width: 595, height: 842, glyphs: [], rules: [] });
    const display = grouped.find(isDisplayLine);
    expect(display?.text).not.toContain('解');
    expect(grouped.some((l) => l.text === '解.')).toBe(true);
  });

  it('keeps a Chinese paragraph line with maths in it out of the display above', () => {
    // seuthesix's proof: `由于 p_i, i=1,2,…,N 为素数，…对于任意的 p_i, i=1,2,…,N，有` under `n = p_1p_2…p_N + 1.`;
    // eighteen CJK characters (each an em wide) against 26 maths glyphs.
    const glyphs = (parts: Array<[string, boolean]>, x0: number, base: number): Glyph[] => {
      let x = x0;
      return parts.flatMap(([text, mathFont]) =>
        [...text].map((ch) => {
          const w = mathFont ? 5.5 : 10;
          x += w;
          return { ch, x: x - w, w, base, size: 10, font: mathFont ? 'CMMI10' : 'SimSun', bold: false, mathFont };
        }),
      );
    };
    const prose = glyphs([['这是一个很长的段落，它从左边一直写到右边，为的是让页面有正文的行，而且还要更长一些才行。', false]], 72, 86);
    const display = glyphs([['n=p1p2...pN+1.', true]], 250, 112);
    const maths = 'pi,i=1,2,...,N';
    const cjk = glyphs(
      [
        ['由于', false],
        [maths, true],
        ['为素数，则一定不为', false],
        ['1', true],
        ['。于是对于任意的', false],
        [maths, true],
        ['，有', false],
      ],
      72,
      138,
    );
    const lines = [prose, display, cjk].map((g) => makeLine(g)!);
    const grouped = groupDisplayMath(lines, { width: 595, height: 842, glyphs: [], rules: [] });
    expect(grouped.find(isDisplayLine)?.text).not.toContain('素数');
    expect(grouped.some((l) => !isDisplayLine(l) && l.text.includes('素数'))).toBe(true);
  });
});
