import { beforeAll, describe, expect, it } from 'vitest';
import { pageMathEngines } from '../../test/support/page-math-engines.js';
import type { PageLine } from '../../page/model.js';
import { renderLatex } from '../../test/support/render-latex.js';
import { TextRecognizer } from '../engine/text/index.js';
import { MATH_MIN_TURN_MARGIN } from './index.js';
import { addMath, type MathEngines } from './math-page.js';

/**
 * A page typeset by pdflatex and rasterised at 200 dpi, read as /v3/pdf reads a scanned page.
 * Prose as print sets it, which the plain word count saw no word in, was read as display maths:
 * small capitals with footnote marks (`IVAN R. KING1,2 AND CLAUDE BERNARD3`, a maths read of 0.84
 * per symbol), a reference's URL and a printed LaTeX command (`\documentclass[option1,option2]`,
 * 0.75), and a footnote's rule alone in its row (a minus sign to the maths read). The displays
 * stay maths, the one holding a word too.
 */
const PAGE = String.raw`
\noindent\textbf{5. REFERENCE FORMATTING WITH BIBTEX}\par\medskip
\noindent Here is a sentence of ordinary prose that runs across the whole width of the page, and then a display:
\[ E = mc^{2} \]
\noindent\textsc{Ivan R. King}\textsuperscript{1,2} \textsc{and Claude Bernard}\textsuperscript{3}\par\medskip
\noindent\rule{3in}{0.4pt}\par\medskip
\noindent January 4, 2021, URL \texttt{https://ctan.org/pkg/newtx}.\par\medskip
\noindent\verb|\documentclass[option1,option2]{assignment}|\par\medskip
\noindent More prose follows here, a sentence long enough to fill one line of the page from left to right.
\[ x = 0 \quad\text{or}\quad x = 1 \]
\noindent APPENDIX A. THE VECTOR PRODUCT\par`;

describe('prose as print sets it on a scanned page', () => {
  let lines: PageLine[];
  beforeAll(async () => {
    const recognizer = await TextRecognizer.load();
    const engines: MathEngines = await pageMathEngines();
    const png = await renderLatex(PAGE, 200, 8.5);
    const ocr = await recognizer.recognize(png, { minTurnMargin: MATH_MIN_TURN_MARGIN });
    lines = (await addMath(png, ocr, { math: 'auto', calibrate: false }, engines)).lines;
  }, 120_000);

  it('keeps small capitals, a reference and printed LaTeX as text, drops the rule, and reads the two displays as maths', () => {
    const maths = lines.filter((l) => l.kind === 'math').map((l) => l.math?.latex);
    expect(maths).toHaveLength(2);
    expect(maths[0]).toBe('E=mc^{2}');
    expect(maths[1]).toMatch(/^x=0\\text\{or\}x=1$/);
    for (const words of [/KING/, /ctan\.org/, /documentclass/, /REFERENCE/, /APPENDIX/]) {
      const line = lines.find((l) => words.test(l.text));
      expect(line?.kind, String(words)).toBe('text');
    }
  });
});
