import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseLatex } from '../../engine/math/latex-normalise.js';
import { AS_RECOGNISED, compileLatex, type LatexPdf } from '../../../test/support/latex-pdf.js';
import { extractTables } from '../convert-tables.js';
import { SOURCE_NAME } from '../convert-pandoc.js';
import { convertDocument, type DocumentResult } from './index.js';

/**
 * A pdflatex page read the way a person reads it: a display split by \qquad stays one display,
 * inline sums and fractions stay in their text line, the page number is furniture, a tabular is
 * a table, a numbered align is one display whose numbered rows each get their tag, and two
 * numbered equations in a row stay two displays.
 */

const PAGE = String.raw`\thispagestyle{plain}
With both ends held at zero temperature the admissible wave numbers are
\[ k_n = \frac{n \pi}{L}, \qquad n = 1, 2, 3, \ldots \]
and the energy decays as $\sum_{n=1}^{\infty} a_n^2 e^{-2\kappa k_n^2 t}$.
An inline fraction $\frac{a}{b}$ sits in this line, as does $\tfrac{1}{2}x$ and the root $\sqrt{x^2+1}$ here.

Table~1 lists the measured decay times of the first three modes.
\begin{center}
\begin{tabular}{lcc}
Mode & Decay time & Error \\ \hline
1 & 12.5 & 0.3 \\
2 & 3.1 & 0.1 \\
3 & 1.4 & 0.1 \\
\end{tabular}
\end{center}
The rows of an alignment:
\begin{align}
x + y &= 1 \\
x - y &= 3 \nonumber \\
2x &= 4
\end{align}
and two equations in a row:
\begin{equation} a = b \end{equation}
\begin{equation} c = d \end{equation}
end the page.`;

let pdf: LatexPdf;
let plain: DocumentResult;
let tagged: DocumentResult;

beforeAll(async () => {
  pdf = await compileLatex(PAGE);
  plain = await convertDocument(pdf.path, AS_RECOGNISED);
  tagged = await convertDocument(pdf.path, { ...AS_RECOGNISED, includeEquationTags: true, includePageInfo: true });
}, 60_000);

afterAll(() => pdf?.cleanup());

const displays = (mmd: string) => [...mmd.matchAll(/\\\[\n(.*?)\n\\\]/g)].map((m) => m[1]!);
const paragraphs = (mmd: string) => mmd.split('\n\n');

describe('reading a born-digital page', () => {
  it('keeps a display whose parts a \\qquad sets apart as one display, the space kept', () => {
    expect(displays(plain.mmd)[0]).toBe(String.raw`k_{n}=\frac{n\pi}{L}, \qquad n=1,2,3,\ldots`);
    expect(plain.mmd).not.toMatch(/2, 3/);
  });

  /** The paragraph after the display: the sum's line and the fractions' lines, joined. */
  const inlineRuns = () => {
    const paragraph = paragraphs(plain.mmd).find((p) => p.startsWith('and the energy decays as \\('));
    return [...(paragraph ?? '').matchAll(/\\\((.*?)\\\)/g)].map((m) => normaliseLatex(m[1]!));
  };

  it('keeps an inline sum with limits in its text line, as one inline run', () => {
    expect(inlineRuns()[0]).toBe(normaliseLatex(String.raw`\sum_{n=1}^{\infty}a_{n}^{2}e^{-2\kappa k_{n}^{2}t}`));
    expect(plain.mmd).not.toContain('\\text{');
  });

  it('keeps inline fractions and roots in their text line, no rule of one line read into another', () => {
    expect(inlineRuns().slice(1)).toEqual([String.raw`\frac{a}{b}`, String.raw`\frac{1}{2}x`, String.raw`\sqrt{x^{2}+1}`].map(normaliseLatex));
  });

  it('writes the tabular as an MMD tabular that reads back as a 3 × 4 grid', async () => {
    const table = String.raw`\begin{tabular}{|l|c|c|}
\hline Mode & Decay time & Error \\
\hline 1 & 12.5 & 0.3 \\
\hline 2 & 3.1 & 0.1 \\
\hline 3 & 1.4 & 0.1 \\
\hline
\end{tabular}`;
    expect(paragraphs(plain.mmd)).toContain(table);
    expect(plain.mmd.match(/\\begin\{tabular\}/g)).toHaveLength(1);
    const dir = await mkdtemp(join(tmpdir(), 'folio-table-'));
    try {
      await writeFile(join(dir, SOURCE_NAME), plain.mmd);
      const [grid] = await extractTables(dir);
      expect(grid).toMatchObject({ rows: 4, cols: 3 });
      expect(grid!.cells.find((c) => c.row === 1 && c.col === 1)?.text).toBe('12.5');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const lines = plain.linesJson.pages[0]!.lines;
    expect(lines.filter((l) => l.type === 'table')).toHaveLength(1);
  });

  it('leaves the page number out of the MMD, as page info in lines.json, unless include_page_info', () => {
    expect(plain.mmd.trimEnd().endsWith('end the page.')).toBe(true);
    const info = plain.linesJson.pages[0]!.lines.filter((l) => l.type === 'page_info');
    expect(info).toMatchObject([{ text: '1', conversion_output: false }]);
    expect(tagged.mmd.trimEnd().endsWith('\n\n1')).toBe(true);
  });

  it('reads a numbered align as one display, each numbered row with its own tag, and two numbered equations as two', () => {
    const [align, ...equations] = displays(tagged.mmd).slice(1);
    expect(align).toBe(String.raw`\begin{align*}x+y & =1 \tag{1} \\ x-y & =3 \\ 2x & =4 \tag{2}\end{align*}`);
    expect(equations).toEqual([String.raw`a=b \tag{3}`, String.raw`c=d \tag{4}`]);
    const plainDisplays = displays(plain.mmd).slice(1);
    expect(plainDisplays.map(normaliseLatex)).toEqual([String.raw`\begin{aligned}x+y&=1\\x-y&=3\\2x&=4\end{aligned}`, 'a=b', 'c=d'].map(normaliseLatex));
    expect(plain.mmd).not.toMatch(/\\tag|\([1-4]\)/);
  });
});

describe('a page whose text block is off centre (a wide left margin)', () => {
  const OFF_CENTRE = String.raw`\newgeometry{left=6cm,right=1.5cm}\pagestyle{empty}
The hyperbolic sine has no built-in function here, so the program computes it from two exponentials
and returns the value of this formula for every dimensionless argument it is given, as follows:
\[ a = b + c \]
which holds for every real argument; the same is done for the hyperbolic cosine and for the
tangent, whose values follow from the two exponentials in the same way for every real number.`;
  let offCentre: LatexPdf;
  let result: DocumentResult;

  beforeAll(async () => {
    offCentre = await compileLatex(OFF_CENTRE, { packages: 'amsmath,amssymb,geometry' });
    result = await convertDocument(offCentre.path, AS_RECOGNISED);
  }, 60_000);

  afterAll(() => offCentre?.cleanup());

  it('finds a one-line display centred on the justified text block, not on the page', () => {
    expect(displays(result.mmd).map(normaliseLatex)).toEqual([normaliseLatex('a=b+c')]);
  });
});

describe('displays whose operator names are set in the text font', () => {
  const PAGE_WITH_NAMES = String.raw`In the limit of a large system the entropy follows from the grand potential as
\begin{equation} S = -kT \ln \Xi \end{equation}
where the sum runs over all states of the system. Compute the derivative of the following function:
\begin{equation*} f(x) = \sin((\sin x)^2) \end{equation*}
The solution is on page 4.`;
  let names: LatexPdf;
  let result: DocumentResult;

  beforeAll(async () => {
    names = await compileLatex(PAGE_WITH_NAMES);
    result = await convertDocument(names.path, AS_RECOGNISED);
  }, 60_000);

  afterAll(() => names?.cleanup());

  it('reads them as displays through the parser, `sin((sin` being two operator names and no word', () => {
    expect(displays(result.mmd).map(normaliseLatex)).toEqual([String.raw`S=-kT\ln\Xi`, String.raw`f(x)=\sin((\sin x)^{2})`].map(normaliseLatex));
  });
});
