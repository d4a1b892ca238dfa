import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseLatex } from '../../engine/math/latex-normalise.js';
import { AS_RECOGNISED, compileLatex, type LatexPdf } from '../../../test/support/latex-pdf.js';
import { convertDocument, type DocumentResult } from './index.js';

/**
 * A pdflatex page that sets its maths letters in the text italic (CMTI, as lazylist's TUGboat
 * article does): displays are found and read although no maths font draws their letters, while
 * italic prose (emphasis, a theorem, a centred italic line) stays prose.
 */

const PREAMBLE = String.raw`\DeclareSymbolFont{letters}{OT1}{cmr}{m}{it}
\newtheorem{theorem}{Theorem}`;

const PAGE = String.raw`Functions are written with capital letters and applied to their arguments by
juxtaposition, so that \emph{applying a function twice} to an argument is
\begin{eqnarray*}
Twice~f~x & = & f~(f~x) \\
Thrice~f~x & = & f~(f~(f~x))
\end{eqnarray*}
while the function that does nothing at all is defined by
\[ Identity~x = x + 0 \]
and it is a useful basic combinator for what follows in this short note.
\begin{theorem}
For every function f and all arguments x and y, if x = y then f x = f y, and so the
function Twice Identity is the identity function, as the reader may check.
\end{theorem}
\begin{center}
\emph{A centred line of emphasis}
\end{center}
The end of the page.`;

let pdf: LatexPdf;
let result: DocumentResult;

beforeAll(async () => {
  pdf = await compileLatex(PAGE, { preamble: PREAMBLE });
  result = await convertDocument(pdf.path, AS_RECOGNISED);
}, 60_000);

afterAll(async () => {
  await pdf?.cleanup();
});

const displays = (mmd: string) => [...mmd.matchAll(/\\\[\n([\s\S]*?)\n\\\]/gu)].map((m) => m[1]!);

describe('maths set in the text italic on a born-digital page', () => {
  it('reads each display from its italic letters, rows and alignment kept', () => {
    expect(displays(result.mmd).map(normaliseLatex)).toEqual(
      ['\\begin{aligned}Twice f x&=f(f x)\\\\Thrice f x&=f(f(f x))\\end{aligned}', 'Identity x=x+0'].map(normaliseLatex),
    );
  });

  it('keeps italic prose as prose', () => {
    expect(result.mmd).toContain('applying a function twice');
    expect(result.mmd).toMatch(/For every function f and all arguments x and y, if x = y then f x = f y, and so the function Twice Identity/);
    expect(result.mmd).toContain('A centred line of emphasis');
    expect(displays(result.mmd).join(' ')).not.toMatch(/emphasis|reader/);
  });
});
