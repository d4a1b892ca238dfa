import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Box, type MathSymbol, RADICAL, RULE } from '../types.js';
import { readPdfMath, symbolsInRegion, type PdfPageMath } from './index.js';
import { compileLatex, openTestPdf, type LatexPdf } from '../../../../test/support/latex-pdf.js';

/** One formula per page, so a page's symbols are exactly one formula's. */
const PAGES = [
  "Let $x^2+y_i$ and $\\alpha\\le\\beta$ hold for $f'(x)$ in $\\mathbb{R}$.",
  '\\[ \\frac{a+b}{c} \\]',
  '\\[ x=\\frac{-b\\pm\\sqrt{b^2-4ac}}{2a} \\]',
  '\\[ \\sum_{i=1}^{n} i^2 \\]',
  '\\[ \\int_0^\\infty e^{-x^2}\\,dx \\]',
  '\\[ \\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix} \\]',
  '\\[ f(x)=\\begin{cases} 1 & x>0 \\\\ 0 & \\text{otherwise} \\end{cases} \\]',
  '\\[ \\hat{x}+\\bar{y}+\\vec{v}+\\tilde{a} \\]',
  '\\[ \\left( \\begin{matrix} 1 \\\\ 2 \\\\ 3 \\\\ 4 \\\\ 5 \\end{matrix} \\right) \\]',
  '\\[ \\Gamma + \\mathcal{L} + \\mathbf{v} + \\mathfrak{g} \\]',
];

let pdf: LatexPdf;
let doc: PDFDocumentProxy;
const pages: PdfPageMath[] = [];

beforeAll(async () => {
  pdf = await compileLatex(PAGES.join('\n\\newpage\n'));
  doc = await openTestPdf(pdf.path);
  for (let n = 1; n <= doc.numPages; n++) pages.push(await readPdfMath(await doc.getPage(n)));
}, 60_000);

afterAll(async () => {
  await doc?.destroy();
  await pdf?.cleanup();
});

const WHOLE_PAGE: Box = { x0: 0, y0: 0, x1: 10_000, y1: 10_000 };
const symbolsOf = (page: number) => symbolsInRegion(pages[page - 1], WHOLE_PAGE);
const tokens = (symbols: MathSymbol[]) => symbols.map((s) => s.latex);
const only = (symbols: MathSymbol[], latex: string) => {
  const found = symbols.filter((s) => s.latex === latex);
  expect(found, latex).toHaveLength(1);
  return found[0];
};
const height = (b: Box) => b.y1 - b.y0;
const centreIn = (s: MathSymbol, b: Box) => {
  const [x, y] = [(s.box.x0 + s.box.x1) / 2, (s.box.y0 + s.box.y1) / 2];
  return x >= b.x0 && x <= b.x1 && y >= b.y0 && y <= b.y1;
};

describe('glyph extraction from a pdflatex page', () => {
  it('gives every Computer Modern glyph an exact ink box from its outline', () => {
    const glyphs = pages.flatMap((p) => p.glyphs);
    expect(glyphs.length).toBeGreaterThan(100);
    expect(glyphs.every((g) => g.exactInk)).toBe(true);
    for (const g of glyphs) {
      expect(g.box.x1).toBeGreaterThan(g.box.x0);
      expect(g.box.y1).toBeGreaterThanOrEqual(g.box.y0);
    }
  });

  it('reads inline maths with TeX tokens, styles, sizes and raised scripts', () => {
    const symbols = pages[0].glyphs.filter((g) => g.font.family !== 'roman' || /[0-9+()′]/.test(g.unicode));
    expect(symbols.map((g) => g.unicode).join('')).toContain('x2+yi');
    const line = symbolsOf(1);
    const x = line.find((s) => s.latex === 'x')!;
    const two = line.find((s) => s.latex === '2')!;
    expect(x.style).toBe('italic');
    expect(two.size!).toBeLessThan(0.8 * x.size!);
    // The superscript's ink sits above x's baseline and it starts where x ends.
    expect(two.box.y1).toBeLessThan(x.baseline! - 1);
    expect(two.box.x0).toBeGreaterThan(x.box.x1 - 0.5);
    expect(tokens(line)).toEqual(expect.arrayContaining(['\\alpha', '\\leq', '\\beta', '\\prime', 'R']));
    expect(line.find((s) => s.latex === 'R')!.style).toBe('blackboard');
    expect(line.find((s) => s.latex === 'L')!.style).toBe('upright');
  });

  it('finds the fraction bar as a rule between numerator and denominator', () => {
    const symbols = symbolsOf(2);
    expect(tokens(symbols).sort()).toEqual([RULE, '+', 'a', 'b', 'c'].sort());
    const bar = only(symbols, RULE);
    expect(height(bar.box)).toBeLessThan(1);
    expect(only(symbols, 'a').box.y1).toBeLessThan(bar.box.y0);
    expect(only(symbols, 'c').box.y0).toBeGreaterThan(bar.box.y1);
    // The bar spans the numerator.
    expect(bar.box.x0).toBeLessThanOrEqual(only(symbols, 'a').box.x0);
    expect(bar.box.x1).toBeGreaterThanOrEqual(only(symbols, 'b').box.x1);
  });

  it('merges the radical sign with its vinculum into one RADICAL covering the radicand', () => {
    const symbols = symbolsOf(3);
    const radical = only(symbols, RADICAL);
    // Only the fraction bar is left as a rule: the vinculum belongs to the radical now.
    expect(symbols.filter((s) => s.latex === RULE)).toHaveLength(1);
    const radicand = symbols.filter((s) => s !== radical && centreIn(s, radical.box));
    expect(tokens(radicand)).toEqual(['b', '2', '-', '4', 'a', 'c']);
    expect(tokens(symbols)).toContain('\\pm');
  });

  it('reads a display sum and integral from the extension font, with their limits', () => {
    const sum = symbolsOf(4);
    const sigma = only(sum, '\\sum');
    const n = only(sum, 'n');
    expect(height(sigma.box)).toBeGreaterThan(2 * height(n.box));
    expect(n.box.y1).toBeLessThan(sigma.box.y0);
    expect(sum.filter((s) => s.latex === 'i').some((s) => s.box.y0 > sigma.box.y1)).toBe(true);
    const integral = symbolsOf(5);
    expect(tokens(integral)).toEqual(expect.arrayContaining(['\\int', '0', '\\infty', 'e', '-', 'x', '2', 'd']));
    expect(only(integral, '\\infty').box.y1).toBeLessThan(only(integral, '0').box.y0);
  });

  it('makes matrix parentheses and a cases brace tall enough to span their rows', () => {
    const matrix = symbolsOf(6);
    const rows = [only(matrix, 'a'), only(matrix, 'c')];
    for (const paren of ['(', ')'].map((p) => only(matrix, p))) {
      expect(paren.box.y0).toBeLessThanOrEqual(rows[0].box.y0);
      expect(paren.box.y1).toBeGreaterThanOrEqual(rows[1].box.y1);
    }
    const cases = symbolsOf(7);
    const brace = only(cases, '\\{');
    expect(height(brace.box)).toBeGreaterThan(20);
    expect(
      cases
        .filter((s) => s.style === 'upright')
        .map((s) => s.latex)
        .join(''),
    ).toContain('otherwise');
  });

  it('keeps accents as tokens above their letters', () => {
    const symbols = symbolsOf(8);
    for (const [accent, letter] of [
      ['\\hat', 'x'],
      ['\\bar', 'y'],
      ['\\vec', 'v'],
      ['\\tilde', 'a'],
    ]) {
      const a = only(symbols, accent);
      const l = only(symbols, letter);
      expect(a.box.y1, accent).toBeLessThan(l.box.y0 + 0.5);
      expect(Math.min(a.box.x1, l.box.x1) - Math.max(a.box.x0, l.box.x0), accent).toBeGreaterThan(0);
    }
  });

  it('stacks the pieces of an extensible parenthesis into one delimiter', () => {
    const symbols = symbolsOf(9);
    const [open, close] = [only(symbols, '('), only(symbols, ')')];
    const digits = ['1', '5'].map((d) => only(symbols, d));
    for (const p of [open, close]) {
      expect(p.box.y0).toBeLessThanOrEqual(digits[0].box.y0);
      expect(p.box.y1).toBeGreaterThanOrEqual(digits[1].box.y1);
    }
  });

  it('takes the style from the font: upright Greek capitals, calligraphic, bold, fraktur', () => {
    const symbols = symbolsOf(10);
    expect(only(symbols, '\\Gamma').style).toBe('upright');
    expect(only(symbols, 'L').style).toBe('calligraphic');
    expect(only(symbols, 'v').style).toBe('bold');
    expect(only(symbols, 'g').style).toBe('fraktur');
  });
});
