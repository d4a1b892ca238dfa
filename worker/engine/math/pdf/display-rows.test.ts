import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLayout } from '../layout/index.js';
import { normaliseLatex } from '../latex-normalise.js';
import { readPdfMath, symbolsInRegion } from './index.js';
import { compileLatex, openTestPdf, type LatexPdf } from '../../../../test/support/latex-pdf.js';

/**
 * Multi-line displays from pdflatex's glyphs: the rows of align, gather, multline and split come
 * back as rows, with `&` where the rows' relations line up. One display a page, unnumbered (an
 * equation number is the page assembly's business, not the formula's).
 */
const DISPLAYS: Array<[source: string, expected: string]> = [
  ['\\begin{align*} a &= b + c \\\\ &= d - e \\end{align*}', '\\begin{aligned}a&=b+c\\\\&=d-e\\end{aligned}'],
  [
    '\\begin{align*} f(x) &= x^2 + 1 \\\\ g(x) &\\leq \\frac{1}{x} \\\\ h &= \\sum_{i=1}^{n} i \\end{align*}',
    '\\begin{aligned}f(x)&=x^2+1\\\\g(x)&\\leq\\frac{1}{x}\\\\h&=\\sum_{i=1}^{n}i\\end{aligned}',
  ],
  ['\\begin{align*} x &= 1 & y &= 2 \\\\ u + v &= 3 & w &= 4 \\end{align*}', '\\begin{aligned}x&=1&y&=2\\\\u+v&=3&w&=4\\end{aligned}'],
  ['\\begin{gather*} x^2 + y = 1 \\\\ x - y = 3 \\end{gather*}', '\\begin{gathered}x^2+y=1\\\\x-y=3\\end{gathered}'],
  // A gather row that starts just right of another row's relation is no split continuation.
  ['\\begin{gather*} E = mc^2, \\\\ E^2 = p^2c^2 + m_0^2c^4. \\end{gather*}', '\\begin{gathered}E=mc^2,\\\\E^2=p^2c^2+m_0^2c^4.\\end{gathered}'],
  [
    '\\begin{equation*} \\begin{split} a &= \\frac{b}{c} + d \\\\ &\\quad + e \\end{split} \\end{equation*}',
    '\\begin{aligned}a&=\\frac{b}{c}+d\\\\&+e\\end{aligned}',
  ],
  ['\\begin{multline*} a + b + c + d + e + f + g + h \\\\ + i + j + k = 0 \\end{multline*}', '\\begin{gathered}a+b+c+d+e+f+g+h\\\\+i+j+k=0\\end{gathered}'],
  // Rows that each open with `&` are flush left, a relation opening a row a thick space (amsmath's
  // `{}` before it) right of a row that opens with a letter.
  [
    '\\begin{align*} &H(X|Y)=0 \\\\ &\\Longleftrightarrow H(X,Y)=H(Y) \\\\ &\\Longleftrightarrow H(X)+1=2 \\end{align*}',
    '\\begin{aligned}&H(X|Y)=0\\\\&\\Longleftrightarrow H(X,Y)=H(Y)\\\\&\\Longleftrightarrow H(X)+1=2\\end{aligned}',
  ],
  // Relations that hang left of the column (`\iff &`, its thick space after it): the `&` where the rows' cells start.
  [
    '\\begin{align*} &H(X|Y)=0 \\\\ \\iff &H(X,Y)=H(Y) \\\\ \\iff &2+H(X)=1 \\end{align*}',
    '\\begin{aligned}&H(X|Y)=0\\\\\\Longleftrightarrow&H(X,Y)=H(Y)\\\\\\Longleftrightarrow&2+H(X)=1\\end{aligned}',
  ],
  // One row's `-` over another's second `=` (a medium and a thick space after one `x`) is no second column pair.
  ['\\begin{align*} A &= x - y \\\\ &= x = y \\end{align*}', '\\begin{aligned}A&=x-y\\\\&=x=y\\end{aligned}'],
  // Stacked limit lines are one limit.
  ['\\[ \\sum_{\\substack{0 \\le i \\le m \\\\ 0 < j < n}} P(i,j) \\]', '\\sum_{\\substack{0\\leq i\\leq m\\\\0<j<n}}P(i,j)'],
  [
    '\\begin{align*} S &= \\sum_{\\substack{i \\in I \\\\ i > 0}} a_i \\\\ &= \\prod_{k=1}^{n} b_k \\end{align*}',
    '\\begin{aligned}S&=\\sum_{\\substack{i\\in I\\\\i>0}}a_i\\\\&=\\prod_{k=1}^{n}b_k\\end{aligned}',
  ],
  // cases has two columns: a wide space inside a condition does not make a third.
  [
    '\\[ f(x) = \\begin{cases} x^2 & x \\geq 0, \\quad x \\in A \\\\ 0 & x < 0 \\end{cases} \\]',
    'f(x)=\\begin{cases}x^2&x\\geq 0,x\\in A\\\\0&x<0\\end{cases}',
  ],
  // A grid's closing delimiter is as tall as its opener, not a parenthesis inside a cell.
  ['\\[ \\begin{pmatrix} 0 & (\\hat{a})_+ \\\\ (\\hat{a})_- & 0 \\end{pmatrix} \\]', '\\begin{pmatrix}0&(\\hat{a})_+\\\\(\\hat{a})_-&0\\end{pmatrix}'],
  // The `&` where the columns hold exactly: not at relations that only nearly line up (`d:a=` over
  // `e:b=`), and at the \quad inside a run the rows share rather than at the relation before it.
  [
    '\\begin{align*} d:a=a:c &\\Longrightarrow d=a^2/c \\\\ e:b=b:c &\\Longrightarrow e=b^2/c \\end{align*}',
    '\\begin{aligned}d:a=a:c&\\Longrightarrow d=a^2/c\\\\e:b=b:c&\\Longrightarrow e=b^2/c\\end{aligned}',
  ],
  [
    '\\begin{align*} \\nabla \\cdot E = 0, &\\quad \\nabla \\times E = -\\partial_t B, \\\\ \\nabla \\cdot B = 0, &\\quad \\nabla \\times B = \\partial_t E. \\end{align*}',
    '\\begin{aligned}\\nabla\\cdot E=0,&\\nabla\\times E=-\\partial_{t}B,\\\\\\nabla\\cdot B=0,&\\nabla\\times B=\\partial_{t}E.\\end{aligned}',
  ],
  // A wide limit reaching toward the next operator stays its own operator's.
  ['\\[ \\sum_{l_1+\\cdots+l_p=l} \\prod_{i=1}^{p} a_i \\]', '\\sum_{l_1+\\cdots+l_p=l}\\prod_{i=1}^{p}a_i'],
  // One row stays one formula, however tall its parts.
  ['\\[ \\sum_{i=1}^{n} \\frac{\\sqrt{a_i}}{b^2} = \\int_0^1 f \\]', '\\sum_{i=1}^{n}\\frac{\\sqrt{a_i}}{b^2}=\\int_0^1 f'],
];

let pdf: LatexPdf;
let doc: PDFDocumentProxy;

beforeAll(async () => {
  pdf = await compileLatex(DISPLAYS.map(([source]) => source).join('\n\\newpage\n'));
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

describe('multi-line displays from PDF glyphs', () => {
  it.each(DISPLAYS.map(([source, expected], i) => [source, expected, i + 1] as const))('reads %s', async (_source, expected, page) => {
    expect(await read(page)).toBe(normaliseLatex(expected));
  });
});
