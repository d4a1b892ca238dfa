import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AS_RECOGNISED, compileLatex, type LatexPdf } from '../../../test/support/latex-pdf.js';
import { convertDocument } from './index.js';

/**
 * Displays of maths and words read as prose by their letters: an equation numbered at the left
 * (leqno) whose right side is a phrase, and a centred formula with `\text{if and only if}` between
 * its two halves. They stand centred, away from the paragraph's edges, with a relation.
 */

const PAGE = String.raw`Words of a paragraph that runs across the whole width of the text block, so that the page has
prose lines above the display. It is well known that
\begin{equation}
\det \mathbf{K}(i|i) = \text{the number of spanning trees of } G, \quad i = 1, \ldots, n
\end{equation}
where the matrix is the principal submatrix. The main use of the command is for words in a display:
\[ \mathbf{y}=\mathbf{y}' \quad\text{if and only if}\quad y'_k=\delta_k y_{\tau(k)} \]
Words of a paragraph that runs across the whole width of the text block, so that the page has
prose lines under the display as well.`;

let pdf: LatexPdf;
let mmd: string;

beforeAll(async () => {
  pdf = await compileLatex(PAGE, { packages: 'amssymb', preamble: '\\usepackage[leqno]{amsmath}' });
  ({ mmd } = await convertDocument(pdf.path, { ...AS_RECOGNISED, includeEquationTags: true }));
}, 60_000);

afterAll(() => pdf?.cleanup());

const displays = () => [...mmd.matchAll(/\\\[\n(.*?)\n\\\]/gsu)].map((m) => m[1]!.replace(/\s/gu, ''));

describe('displays of maths and words', () => {
  it('reads a numbered one as a display with its tag, not a paragraph with a loose number', () => {
    expect(displays()[0]).toMatch(/^\\det\\mathbf\{K\}\(i\|i\)=.*spanning.*\\tag\{1\}$/u);
    expect(mmd).not.toMatch(/^\(1\)/mu);
  });

  it('reads a centred one with few words as a display', () => {
    expect(displays()[1]).toMatch(/^\\mathbf\{y\}=\\mathbf\{y\}'.*only.*\\delta_\{k\}y_\{\\tau\(k\)\}$/u);
  });
});
