import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseLatex } from '../../engine/math/latex-normalise.js';
import { AS_RECOGNISED, compileLatex, type LatexPdf } from '../../../test/support/latex-pdf.js';
import { convertDocument, type DocumentResult } from './index.js';

/**
 * Multi-line displays on a pdflatex page come back as one display each, rows and `&` kept: an
 * align* (aligned), a gather* (gathered), an equation holding a split with one number (the
 * number is furniture at default options, a tag when asked for), a sum whose limit is a
 * \substack of two lines, and an align* whose rows each open with `&` (set flush left).
 */

const PAGE = String.raw`Consider the chain of equalities
\begin{align*}
f(x) &= (x+1)^2 - 1 \\
     &= x^2 + 2x
\end{align*}
and the two conditions
\begin{gather*}
a^2 + b = 1 \\
a - b = 3
\end{gather*}
which together give
\begin{equation}
\begin{split}
S &= \sum_{\substack{i \in I \\ i > 0}} a_i \\
  &= \frac{1}{2} n
\end{split}
\end{equation}
for every admissible set of indices in the sum. The sum is bounded in two steps,
\begin{align*}
&\int_0^1 f(x)\,dx \le \int_0^1 g(x)\,dx + 1\\
&\le 2
\end{align*}
set flush left at the start of their rows.`;

let pdf: LatexPdf;
let plain: DocumentResult;
let tagged: DocumentResult;

beforeAll(async () => {
  pdf = await compileLatex(PAGE);
  plain = await convertDocument(pdf.path, AS_RECOGNISED);
  tagged = await convertDocument(pdf.path, { ...AS_RECOGNISED, includeEquationTags: true });
}, 60_000);

afterAll(async () => {
  await pdf?.cleanup();
});

const displays = (mmd: string) => [...mmd.matchAll(/\\\[\n([\s\S]*?)\n\\\]/gu)].map((m) => m[1]!);

describe('multi-line displays on a born-digital page', () => {
  it('keeps every row of align*, gather* and split in one display, with the alignment points', () => {
    expect(displays(plain.mmd).map(normaliseLatex)).toEqual(
      [
        '\\begin{aligned}f(x)&=(x+1)^2-1\\\\&=x^2+2x\\end{aligned}',
        '\\begin{gathered}a^2+b=1\\\\a-b=3\\end{gathered}',
        '\\begin{aligned}S&=\\sum_{\\substack{i\\in I\\\\i>0}}a_i\\\\&=\\frac{1}{2}n\\end{aligned}',
        '\\begin{aligned}&\\int_0^1 f(x)dx\\le\\int_0^1 g(x)dx+1\\\\&\\le 2\\end{aligned}',
      ].map(normaliseLatex),
    );
  });

  it('leaves the equation number out of the maths and the prose, or writes it as a tag', () => {
    expect(plain.mmd).not.toMatch(/\(1\)/u);
    expect(displays(tagged.mmd)[2]).toMatch(/\\tag\{1\}$/u);
  });
});
