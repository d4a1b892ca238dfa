import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AS_RECOGNISED, compileLatex, type LatexPdf } from '../../../test/support/latex-pdf.js';
import { convertDocument } from './index.js';

/**
 * A flat formula on a line of its own is a display where it is centred in its column, so the
 * column's edges must be the text block's: not where a few short lines happen to end together
 * (a solution's `The derivative is:` set three times), nor where margin notes in a smaller size
 * start. And on a two-column page, an equation number amsmath moved under a long display belongs
 * to it, whatever the other column holds on that row, and never to a display of the other column.
 */

/** A text block set off the page's centre (a twoside book's odd page, a wide left margin): the page's own middle is not the column's. */
const OFF_CENTRE = '\\addtolength{\\oddsidemargin}{60pt}';
const SHORT_LINES = String.raw`\noindent Solutions to the exercises of the first chapter \hfill page 4\par
\noindent\hspace*{3em}The derivative is:\par
\[ f'(x) = \cos x \cdot 2 \sin x \]
\noindent\hspace*{3em}The derivative is:\par
\[ g'(x) = -\sin x \cdot 3 \cos x \]
\noindent\hspace*{3em}The derivative is:\par
\[ h'(x) = 2 \cos x \]
\noindent Exercise 1 is on page 1.\par
\noindent Exercise 2 is on page 1.`;

const MARGIN_NOTES = String.raw`\reversemarginpar
Words of a paragraph that runs across the whole width of the text block, so that the page has
prose lines.\marginpar{\footnotesize Are these\\ quotations\\ necessary?} It is always a pleasure
to cite the literature, and the sentence goes on to fill a third line of the paragraph here.
\[ a_1 + b_1 = c_1 \]
Words of a paragraph that runs across the whole width of the text block, so that the page has
prose lines under the display as well.`;

const TWO_COLUMNS = String.raw`\setlength{\columnsep}{24pt}\twocolumn
Words of the left column that run on down the page, one line after another, beside the
display and its number in the right column.
\begin{equation}
\sum_{i=1}^{n} \frac{a_i}{\displaystyle b_i + \frac{c_i}{d_i}}
\end{equation}
Words of the left column that run on down the page, one line after another, beside the
display and its number in the right column, so that each row of the page has prose in it.
\newpage
Words of the right column, set in a narrow column so that the long display below cannot keep its
equation number on its own row: amsmath moves the number under the display.
\begin{equation}
g^+ g^+ \rightarrow g^+ g^+ g^+ g^+ \ldots , q^+ q^+ \rightarrow q^+ .
\end{equation}
Words after the display, in the same column, until the column is full.`;

const displays = (mmd: string) => [...mmd.matchAll(/\\\[\n(.*?)\n\\\]/gsu)].map((m) => m[1]!);

const pdfs: LatexPdf[] = [];
const mmdOf = async (body: string, { tags = false, preamble = '' } = {}) => {
  const pdf = await compileLatex(body, { preamble });
  pdfs.push(pdf);
  return (await convertDocument(pdf.path, { ...AS_RECOGNISED, includeEquationTags: tags })).mmd;
};

let shortLines: string;
let marginNotes: string;
let twoColumns: string;

beforeAll(async () => {
  [shortLines, marginNotes, twoColumns] = await Promise.all([
    mmdOf(SHORT_LINES, { preamble: OFF_CENTRE }),
    mmdOf(MARGIN_NOTES),
    mmdOf(TWO_COLUMNS, { tags: true }),
  ]);
}, 60_000);

afterAll(() => Promise.all(pdfs.map((p) => p.cleanup())));

describe('the column edges a flat display is centred between', () => {
  it('are not where short lines of the same text end together', () => {
    expect(displays(shortLines)).toHaveLength(3);
    expect(shortLines).not.toMatch(/\\\(/u);
  });

  it('are not where margin notes in a smaller size start', () => {
    expect(displays(marginNotes).map((d) => d.replace(/\s/gu, ''))).toEqual(['a_{1}+b_{1}=c_{1}']);
  });
});

describe('equation numbers on a two-column page', () => {
  it('take a number amsmath moved under a long display, though the other column has a line on its row', () => {
    expect(displays(twoColumns)[1]).toMatch(/\\rightarrow q\^\{\+\}\. \\tag\{2\}$/u);
  });

  it('never give a display the number of the other column, level with it though that stands', () => {
    expect(displays(twoColumns)[0]).toMatch(/\\tag\{1\}$/u);
  });
});
