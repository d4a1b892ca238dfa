import { beforeAll, describe, expect, it } from 'vitest';
import { pageMathEngines, readScannedPage } from '../../test/support/page-math-engines.js';
import type { PageLine } from '../../page/model.js';
import { TextRecognizer } from '../engine/text/index.js';
import type { MathEngines } from './math-page.js';

/**
 * A page numbered by lineno in its margin, equations numbered at the left (leqno), typeset by
 * pdflatex and rasterised at 200 dpi, read as /v3/pdf reads a scanned page. The line numbers had
 * opened the prose lines (`2 Lorem…`, a line `3` alone) and the display rows the maths engine
 * read (`11(1)E=mc^{2}`, which also hid the left equation number). A page without line numbers
 * keeps the numbers its lines open with.
 */
const PROSE = 'The sum of the series converges for every value of the parameter that we consider here, as the next lines show. '.repeat(3);

const NUMBERED = String.raw`\linenumbers
${PROSE}
\begin{equation} E = mc^{2} \end{equation}
${PROSE}
\begin{equation} f(x) = \frac{1}{1+x} \end{equation}
${PROSE}`;

const UNNUMBERED = String.raw`${PROSE}

\noindent 1 2 3 are the first counting numbers, and so the list of them goes on for a while here.

\noindent 2 4 6 are the first even numbers, and so the list of them goes on for a while here too.

\noindent 3 6 9 are the first multiples of three, and so the list of them goes on for a while.

\noindent 4 8 12 are the first multiples of four, and so the list of them goes on for a while.

\noindent 5 10 15 are the first multiples of five, and so the list goes on for a while here.
\[ E = mc^{2} \]`;

let engines: MathEngines;
let recognizer: TextRecognizer;

async function readScan(body: string): Promise<PageLine[]> {
  const compile = { packages: 'amssymb', preamble: '\\usepackage[leqno]{amsmath}\\usepackage[mathlines]{lineno}' };
  return (await readScannedPage(body, compile, recognizer, engines)).lines;
}

describe('margin line numbers on a scanned page', () => {
  beforeAll(async () => {
    recognizer = await TextRecognizer.load();
    engines = await pageMathEngines();
  }, 120_000);

  it('leaves the numbers out of the prose and the display rows, and finds the left equation numbers', async () => {
    const lines = await readScan(NUMBERED);
    const maths = lines.filter((l) => l.kind === 'math').map((l) => [l.math?.latex, l.math?.tag]);
    expect(maths).toEqual([
      ['E=mc^{2}', '1'],
      ['f(x)=\\frac{1}{1+x}', '2'],
    ]);
    const text = lines.filter((l) => l.kind !== 'math');
    expect(text.length).toBeGreaterThanOrEqual(6);
    for (const line of text) expect(line.text).toMatch(/^[A-Za-z]/);
  }, 120_000);

  it('keeps the numbers lines open with on a page without line numbers', async () => {
    const lines = await readScan(UNNUMBERED);
    const opening = lines.filter((l) => l.kind !== 'math' && /^\d+ \d+ \d+ are/.test(l.text));
    expect(opening).toHaveLength(5);
    expect(lines.filter((l) => l.kind === 'math').map((l) => l.math?.latex)).toEqual(['E=mc^{2}']);
  }, 120_000);
});
