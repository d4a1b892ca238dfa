import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLayout } from '../layout/index.js';
import { normaliseLatex } from '../latex-normalise.js';
import { readPdfMath, symbolsInRegion } from './index.js';
import { compileLatex, openTestPdf, type LatexPdf } from '../../../../test/support/latex-pdf.js';

/**
 * End to end through the layout parser: pdflatex typesets each formula on a page of its own, the
 * front end reads the page's symbols, the parser writes LaTeX, and the normal forms must match.
 */
const FORMULAS = [
  '\\frac{a+b}{c}',
  'x=\\frac{-b\\pm\\sqrt{b^2-4ac}}{2a}',
  '\\sum_{i=1}^{n} i^2',
  '\\int_0^\\infty e^{-x^2}dx',
  '\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}',
  'f(x)=\\begin{cases} 1 & x>0 \\\\ 0 & \\text{otherwise} \\end{cases}',
  '\\hat{x}+\\bar{y}+\\vec{v}',
  "f'(x)+g''(t)",
  '\\alpha^2+\\beta_1=\\gamma',
  '\\sqrt{x^2+y^2}',
  '\\lim_{n\\to\\infty}\\frac{1}{n}=0',
  'e^{i\\pi}+1=0',
  '\\sqrt[3]{x}',
  '\\prod_{k=1}^{N} a_k',
  'a_{ij}=b^{2k}',
  '\\left(\\frac{a}{b}\\right)^2',
  '\\frac{\\partial f}{\\partial x}',
  '\\|v\\|\\leq 1',
  '\\sin^2\\theta+\\cos^2\\theta=1',
  '\\int_a^b f(x)dx=F(b)-F(a)',
  '\\Delta x\\cdot\\nabla f',
  '\\{x : x>0\\}',
  '\\frac{1}{1+\\frac{1}{x}}',
  '\\overline{AB}',
  '\\sqrt{\\frac{a}{b}}',
  'x_1,\\ldots,x_n',
  '\\bigcup_{i=1}^\\infty A_i',
  '\\dot{x}=-kx',
  '\\exp(-\\lambda t)',
  '\\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}',
  'y^{(k)}=\\tilde{a}_k',
  'x\\in\\mathbb{R}',
  '\\mathcal{L}(\\theta)=\\sum_{i} \\log p(x_i)',
  '\\mathbf{v}\\cdot\\mathbf{w}',
  '\\Omega\\subseteq\\mathbb{C}^n',
  '\\binom{n}{k}',
  // Delimiters drawn from the extension font's whitespace codes (the bars of a vmatrix, the largest parenthesis).
  '\\begin{vmatrix} a & b \\\\ c & d \\end{vmatrix}=ad-bc',
  '\\|x\\|_2=\\left(\\sum_{i=1}^{n}x_i^2\\right)^{\\frac{1}{2}}',
  '\\left\\lfloor \\frac{a}{b} \\right\\rfloor+\\left\\lceil \\frac{c}{d} \\right\\rceil',
  // Glyphs whose Unicode is not their command, and relations TeX builds from two glyphs.
  '\\phi(t)+\\varphi(s)+\\epsilon+\\varepsilon',
  '\\Delta G^{\\circ}=-RT\\ln K',
  'A\\rightleftharpoons B',
  'a\\neq b,\\ x\\notin A,\\ p\\nleq q',
  'f:A\\longrightarrow B,\\ x\\mapsto x^2',
  'A\\cong B\\Longrightarrow A\\setminus B=\\emptyset',
  // An extensible arrow whose fill is shorter than its head's glyph.
  'B\\xleftarrow{c}C\\xrightarrow{d}D',
  // Rows too tall for their struts, whose ink touches the next row's.
  // A frame of two horizontal and two vertical rules.
  'a+\\boxed{W_t-F\\subseteq \\frac{x}{y}}=1',
  // Horizontal braces: extension-font pieces joined by rules, with their labels.
  'x=\\underbrace{a+\\frac{b}{c}}_{=0}+\\overbrace{d+e}^{n}',
  'd=\\begin{pmatrix} a \\\\ b\\end{pmatrix}=\\underbrace{\\begin{pmatrix} a & b \\\\ c & d\\end{pmatrix}}_{=J_1}\\begin{pmatrix} x \\\\ y\\end{pmatrix}',
  'f=\\begin{cases} x(t)=\\dfrac{t^2}{(t+1)(t-2)} \\\\ y(t)=\\dfrac{t^2(t+2)}{t+1} \\end{cases}',
];

let pdf: LatexPdf;
let doc: PDFDocumentProxy;

beforeAll(async () => {
  pdf = await compileLatex(FORMULAS.map((f) => `\\[ ${f} \\]`).join('\n\\newpage\n'));
  doc = await openTestPdf(pdf.path);
}, 60_000);

afterAll(async () => {
  await doc?.destroy();
  await pdf?.cleanup();
});

async function read(page: number): Promise<string> {
  const math = await readPdfMath(await doc.getPage(page));
  return normaliseLatex(parseLayout(symbolsInRegion(math, { x0: 0, y0: 0, x1: math.width, y1: math.height })).latex);
}

describe('born-digital formulas through the PDF front end and the layout parser', () => {
  it.each(FORMULAS.map((f, i) => [f, i + 1] as const))('reads %s', async (formula, page) => {
    expect(await read(page)).toBe(normaliseLatex(formula));
  });
});
