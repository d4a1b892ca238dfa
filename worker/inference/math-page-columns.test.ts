import { beforeAll, describe, expect, it } from 'vitest';
import { pageMathEngines, readScannedPage } from '../../test/support/page-math-engines.js';
import { assemblePage, type AssembledPage } from '../../page/assemble.js';
import { TextRecognizer } from '../engine/text/index.js';
import type { MathEngines } from './math-page.js';

/**
 * A two-column page with a narrow gutter (10 pt, as LaTeX's two-column classes leave) and a
 * running head across its middle, typeset by pdflatex and rasterised at 200 dpi, read as /v3/pdf
 * reads a scanned page. Each column's display moves the lines after it, so the two columns' rows
 * of ink ran into each other: the page's bands held a display of one column with prose of the
 * other, the displays were lost into prose, and the columns' lines were read interleaved. A
 * footnote's short rule, alone in its column's row, is no display (`-`).
 */
const LEFT = 'The series converges for every value of the parameter that we consider in this section. '.repeat(3);
const RIGHT = 'A second column of prose follows here, with its own words about the same question. '.repeat(3);

const BODY = String.raw`\twocolumn\thispagestyle{myheadings}\markright{Journal of Worked Examples, a draft of the first of May}
${LEFT}
\[ x^{2}-y^{2}=(x-y)(x+y) \]
${LEFT}
\[ a+b=c \]
${LEFT}\footnote{A footnote of the first column, under a rule a third of an inch long.}\newpage
${RIGHT}The third of its paragraphs opens here and goes on.
\[ \sum_{k=1}^{n} k=\frac{n(n+1)}{2} \]
${RIGHT}`;

let engines: MathEngines;
let recognizer: TextRecognizer;

async function readScan(body: string): Promise<AssembledPage> {
  const preamble =
    '\\usepackage[paperwidth=7in,paperheight=5.5in,margin=0.5in]{geometry}\\setlength{\\columnsep}{10pt}\\renewcommand{\\footnoterule}{\\kern-3pt\\hrule width 0.35in\\kern 2.6pt}';
  return assemblePage(await readScannedPage(body, { preamble }, recognizer, engines));
}

describe('a scanned page of two columns with a narrow gutter', () => {
  beforeAll(async () => {
    recognizer = await TextRecognizer.load();
    engines = await pageMathEngines();
  }, 120_000);

  it("reads each column's displays on their own and its lines column by column", async () => {
    const page = await readScan(BODY);
    const maths = page.lines.filter((l) => l.kind === 'math').map((l) => l.math?.latex);
    expect(maths).toEqual(['x^{2}-y^{2}=(x-y)(x+y)', 'a+b=c', '\\sum_{k=1}^{n}k=\\frac{n(n+1)}{2}']);
    // Reading order: every line of the left column's prose before any of the right's.
    const texts = page.lines.filter((l) => l.kind !== 'math').map((l) => l.text);
    const lastLeft = texts.findLastIndex((t) => /series|parameter|section/.test(t));
    const firstRight = texts.findIndex((t) => /second column|same question/.test(t));
    expect(lastLeft).toBeGreaterThan(0);
    expect(firstRight).toBeGreaterThan(lastLeft);
  }, 180_000);
});

describe('a scanned two-column page whose gutter a draft overfull mark crosses', () => {
  // lazylist's TUGboat draft: the black mark of an overfull line stands in the gutter, so no blank
  // strip ran down the band of the rows beside it, and that band held both columns' lines and displays.
  it("still reads each column's displays on their own", async () => {
    const overfull = String.raw`\par\noindent\makebox[\dimexpr\linewidth+2pt\relax][l]{The macros below are set in a line of its own.}\par`;
    const page = await readScan(String.raw`\overfullrule=5pt\twocolumn
${LEFT}
\[ x^{2}-y^{2}=(x-y)(x+y) \]
${overfull} ${LEFT}
\[ a+b=c \]
${LEFT}\newpage
${RIGHT}The third of its paragraphs opens here and goes on.
\[ \sum_{k=1}^{n} k=\frac{n(n+1)}{2} \]
${RIGHT}`);
    const maths = page.lines.filter((l) => l.kind === 'math').map((l) => l.math?.latex);
    expect(maths).toEqual(['x^{2}-y^{2}=(x-y)(x+y)', 'a+b=c', '\\sum_{k=1}^{n}k=\\frac{n(n+1)}{2}']);
  }, 180_000);
});
