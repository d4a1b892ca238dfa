import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLatex, type LatexPdf } from '../../../test/support/latex-pdf.js';
import { convertDocument } from './index.js';

/**
 * A line of prose between two displays parts them, however tightly the page is set: `where` at
 * the left margin between two equations (a lemma on a slide-sized page, set without display skips
 * or line skip) is not a gap a display's rows may cross (math-regions.ts `proseBetween`).
 */

const PAGE = String.raw`\setlength{\lineskip}{0pt}
\setlength{\abovedisplayskip}{0pt}\setlength{\belowdisplayskip}{0pt}
\setlength{\abovedisplayshortskip}{0pt}\setlength{\belowdisplayshortskip}{0pt}
Suppose the numbers are positive and sum to one. Then
\begin{equation*}
\frac{1}{|y|^{p-2}y}\sum_{i=1}^m c_i(x)|y|^{p_i-2}y\geq C(x),
\end{equation*}
where
\begin{equation}
C(x):=\left(\frac{c(x)}{\eta}\right)^{\eta}
\end{equation}
and the product runs over every index of the sum.`;

let pdf: LatexPdf;
let mmd: string;

beforeAll(async () => {
  pdf = await compileLatex(PAGE);
  ({ mmd } = await convertDocument(pdf.path));
}, 60_000);

afterAll(async () => {
  await pdf?.cleanup();
});

describe('prose between two displays', () => {
  it('parts them: two displays with the word between', () => {
    const displays = [...mmd.matchAll(/\\\[\n([\s\S]*?)\n\\\]/gu)].map((m) => m[1]!);
    expect(displays).toEqual(['\\frac{1}{|y|^{p-2}y}\\sum_{i=1}^{m}c_{i}(x)|y|^{p_{i}-2}y\\geq C(x),', 'C(x):=(\\frac{c(x)}{\\eta})^{\\eta}']);
    expect(mmd).toMatch(/C\(x\),\n\\\]\n\nwhere\n\n\\\[\nC\(x\)/u);
  });
});
