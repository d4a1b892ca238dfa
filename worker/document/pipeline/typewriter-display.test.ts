import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLatex, type LatexPdf } from '../../../test/support/latex-pdf.js';
import { convertDocument } from './index.js';

/**
 * A manual's layout as refman's classes set it: headings hang in a wide left margin, the text
 * block starts far to their right, and displays compute lengths from names set in a typewriter
 * face (`\texttt{fullwidth} = \texttt{paperwidth} - 2\ \textrm{inch}`). Such a display is maths,
 * centred in the text block (not in the page), with its names as `\texttt` (a fraction's too, whose
 * numerator and denominator hold no prose); a line of typewriter words below it, and a verbatim listing
 * beside it, which sets its minus sign in the typewriter face too, stays code.
 */

const PROSE = 'Words of a paragraph that runs across the whole width of the text block, so that the page has its full lines of prose.';
const HEADING = (title: string) => `\\par\\noindent\\hspace*{-5cm}\\makebox[4.5cm][l]{${title}}\\par`;

const PAGE = [
  HEADING('3.1 Page layout'),
  PROSE,
  'First we define the width of the whole page minus a margin on every side.',
  '\\[ \\texttt{fullwidth} = \\texttt{paperwidth} - 2\\ \\textrm{inch} \\]',
  PROSE,
  HEADING('3.2 Text width'),
  'From this the width of the text is calculated.',
  '\\[ \\texttt{textwidth} = \\texttt{fullwidth} \\times \\texttt{textfraction} \\]',
  PROSE,
  'Each column gets what is left once the indent is taken off, if it stays under the limit:',
  '\\[ \\frac{\\texttt{width} - \\texttt{indent}}{\\texttt{columns}} \\le \\texttt{max}. \\]',
  '\\noindent\\texttt{max : dimen, skip}\\par',
  PROSE,
  HEADING('3.3 In the source'),
  'The source reads:',
  '\\begin{verbatim}\n\\setlength{\\textwidth}{\\fullwidth - 2in}\n\\end{verbatim}',
  PROSE,
].join('\n');

let pdf: LatexPdf;
let mmd = '';

beforeAll(async () => {
  pdf = await compileLatex(PAGE, { preamble: '\\usepackage[left=7cm,right=2cm]{geometry}' });
  ({ mmd } = await convertDocument(pdf.path));
}, 60_000);

afterAll(() => pdf?.cleanup());

describe('displays of typewriter names in a text block beside a margin of headings', () => {
  it('reads each as a display with its names in \\texttt', () => {
    const displays = [...mmd.matchAll(/\\\[\n(.*?)\n\\\]/gu)].map((match) => match[1]);
    expect(displays).toEqual([
      '\\texttt{fullwidth}=\\texttt{paperwidth}-2\\text{inch}',
      '\\texttt{textwidth}=\\texttt{fullwidth}\\times\\texttt{textfraction}',
      '\\frac{\\texttt{width}-\\texttt{indent}}{\\texttt{columns}}\\leq\\texttt{max}.',
    ]);
  });

  it('keeps a line of typewriter words below a display out of it', () => {
    expect(mmd).toMatch(/max :\s+dimen, skip/u);
  });

  it('keeps the verbatim listing as code', () => {
    expect(mmd).toContain('\\begin{lstlisting}\n\\setlength{\\textwidth}{\\fullwidth - 2in}\n\\end{lstlisting}');
  });
});
