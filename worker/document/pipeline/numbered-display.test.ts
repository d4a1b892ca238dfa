import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AS_RECOGNISED, compileLatex, type LatexPdf } from '../../../test/support/latex-pdf.js';
import { convertDocument, type DocumentResult } from './index.js';

/**
 * Numbered displays on a page set with amsmath's fleqn (displays at \mathindent from the left, as
 * journal classes set them): a flat equation that is not centred is a display by its equation
 * number, not a paragraph of inline maths; the numbered rows of an align of short symbols (a full
 * em of white between them) are one display.
 */

const PAGE = String.raw`Equations should fit into one column, as the phase difference of the two paths
\begin{equation}
d_2 - d_1 = \pm n\pi ,
\end{equation}
shows for every whole number of half wavelengths between the two mirrors of the interferometer.
The three rows
\begin{align}
a \\ b \\ c
\end{align}
are one display.`;

let pdf: LatexPdf;
let plain: DocumentResult;
let tagged: DocumentResult;

beforeAll(async () => {
  pdf = await compileLatex(PAGE, { packages: 'amssymb', preamble: '\\usepackage[fleqn]{amsmath}\\setlength{\\mathindent}{2em}' });
  plain = await convertDocument(pdf.path, AS_RECOGNISED);
  tagged = await convertDocument(pdf.path, { ...AS_RECOGNISED, includeEquationTags: true });
}, 60_000);

afterAll(() => pdf?.cleanup());

describe('numbered displays set at the left indent', () => {
  it('are displays when flat, the number a tag only when asked for', () => {
    expect(plain.mmd).toContain('\\[\nd_{2}-d_{1}=\\pm n\\pi,\n\\]');
    expect(plain.mmd).not.toMatch(/\(1\)/);
    expect(tagged.mmd).toContain('\\[\nd_{2}-d_{1}=\\pm n\\pi, \\tag{1}\n\\]');
  });

  it('joins the numbered rows of an align of short symbols into one display', () => {
    expect(plain.mmd).toContain('\\[\n\\begin{gathered}a \\\\ b \\\\ c\\end{gathered}\n\\]');
  });
});
