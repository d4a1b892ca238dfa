import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertDocument } from '../../../document/pipeline/index.js';
import { normaliseLatex } from '../latex-normalise.js';
import { AS_RECOGNISED, compileLatex, type LatexPdf } from '../../../../test/support/latex-pdf.js';

/**
 * A PDF made by latex, dvips and Ghostscript (as journals' PostScript workflows make them) paints
 * TeX's rules as 1-bit image masks, not as filled paths: its fraction bars and radical vinculums
 * are rules all the same.
 */

let pdf: LatexPdf;
let mmd: string;

beforeAll(async () => {
  pdf = await compileLatex(
    String.raw`The quantity below is a fraction of a root:
\[ E = \frac{1}{2} \sqrt{a + b} \]
and the components of the vector are
\begin{align}
m_x &= \frac{\sqrt{3}}{2} (S_b - S_c), \\
m_y &= \frac{3}{2} S_a - \frac{1}{2}.
\end{align}
and nothing more.`,
    { viaDvips: true },
  );
  ({ mmd } = await convertDocument(pdf.path, AS_RECOGNISED));
}, 60_000);

afterAll(async () => {
  await pdf?.cleanup();
});

describe('rules of a dvips PDF', () => {
  it('reads the fraction bars and the vinculums painted as image masks', () => {
    const displays = [...mmd.matchAll(/\\\[\n([\s\S]*?)\n\\\]/gu)].map((m) => normaliseLatex(m[1]!));
    expect(displays).toEqual(
      [
        'E=\\frac{1}{2}\\sqrt{a+b}',
        // A root in a numerator of an aligned row: its vinculum is a mask too.
        '\\begin{aligned}m_{x}&=\\frac{\\sqrt{3}}{2}(S_{b}-S_{c}),\\\\m_{y}&=\\frac{3}{2}S_{a}-\\frac{1}{2}.\\end{aligned}',
      ].map(normaliseLatex),
    );
  });
});
