import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AS_RECOGNISED, compileLatex, type LatexPdf } from '../../../test/support/latex-pdf.js';
import { convertDocument, type DocumentResult } from './index.js';

/**
 * Margin line numbers (lineno, a journal's review copy) are page furniture: on a numbered page the
 * numbers must neither become a table's first column beside the prose nor split the displays
 * (page/processors/line-numbers.ts). A table whose first column counts 1, 2, 3… inside the text
 * block keeps its numbers.
 */

const PROSE = 'The sum of the series converges for every value of the parameter that we consider here, as the next lines show. '.repeat(3);

const PAGE = String.raw`\linenumbers
${PROSE}
\begin{align}
\sum_{k=1}^{n} k &= \frac{n(n+1)}{2} \\
\int_0^1 x^2\,dx &= \frac{1}{3}
\end{align}
${PROSE}
\[ f(x) = \sum_{k=0}^{\infty} \frac{x^k}{k!} \]
${PROSE}
\nolinenumbers
\newpage
\begin{tabular}{ll}
1 & first row of the table \\
2 & second row of the table \\
3 & third row of the table \\
4 & fourth row of the table \\
5 & fifth row of the table
\end{tabular}`;

let pdf: LatexPdf;
let result: DocumentResult;

beforeAll(async () => {
  pdf = await compileLatex(PAGE, { packages: 'amsmath,lineno' });
  result = await convertDocument(pdf.path, AS_RECOGNISED);
}, 60_000);

afterAll(async () => {
  await pdf?.cleanup();
});

const displays = (mmd: string) => [...mmd.matchAll(/\\\[\n([\s\S]*?)\n\\\]/gu)].map((m) => m[1]!);

describe('margin line numbers', () => {
  it('leaves the numbers out of the prose and the displays', () => {
    // The second page's table is the document's only one.
    expect(result.mmd.match(/\\begin\{tabular\}/g)).toHaveLength(1);
    const [first] = result.mmd.split('\\begin{tabular}');
    expect(first).not.toMatch(/(^|\n)\d+( \d+)*(\n|$)/);
    expect(first).toMatch(/The sum of the series converges/);
    const found = displays(first!);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(
      /^\\begin\{aligned\}\\sum_\{k=1\}\^\{n\}k & =\\frac\{n\(n\+1\)\}\{2\} \\\\ \\int_\{0\}\^\{1\}x\^\{2\}\s*d\s*x & =\\frac\{1\}\{3\}\\end\{aligned\}$/,
    );
    expect(found[1]).toBe('f(x)=\\sum_{k=0}^{\\infty}\\frac{x^{k}}{k!}');
  });

  it('keeps a table column of counting numbers inside the text block', () => {
    for (const n of [1, 2, 3, 4, 5]) expect(result.mmd).toMatch(new RegExp(`\\b${n} & \\S`));
  });
});
