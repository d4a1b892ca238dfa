import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLatex, type LatexPdf } from '../../../test/support/latex-pdf.js';
import { convertDocument } from './index.js';

/**
 * Printed code on a page typeset here, as a package manual prints it: a verbatim listing of
 * LaTeX (with a display environment in it, an indented row, a blank line and the quotes a typewriter
 * font prints curly though the author typed ' and `), a `\verb` inside
 * prose, and a real display after. The listing is one code block with its indentation, never
 * maths; the prose keeps its `\verb`; the real display stays a display.
 */

const PAGE = String.raw`A manual explains the environment in a paragraph that runs across the whole column, and it says
that \verb|\begin{equation}| starts one. The source reads:
\begin{verbatim}
\begin{equation}
  x^2 + y^2 = z^2

\end{equation}
f'(x) = ${'`'}g'
\end{verbatim}
which prints as
\[ x^2 + y^2 = z^2 \]
and the text goes on after it.`;

let pdf: LatexPdf;
let mmd = '';
let fenced = '';

beforeAll(async () => {
  pdf = await compileLatex(PAGE, { packages: 'amssymb', preamble: '\\usepackage{amsmath}' });
  mmd = (await convertDocument(pdf.path)).mmd;
  fenced = (await convertDocument(pdf.path, { disableLstlisting: true })).mmd;
}, 60_000);

afterAll(async () => {
  await pdf?.cleanup();
});

describe('printed code on a born-digital page', () => {
  it('writes a verbatim listing as one code block, indentation, blank line and typed quotes kept', () => {
    expect(mmd).toContain("\\begin{lstlisting}\n\\begin{equation}\n  x^2 + y^2 = z^2\n\n\\end{equation}\nf'(x) = `g'\n\\end{lstlisting}");
  });

  it('fences it when lstlisting is disabled', () => {
    expect(fenced).toContain("```\n\\begin{equation}\n  x^2 + y^2 = z^2\n\n\\end{equation}\nf'(x) = `g'\n```");
  });

  it('keeps a \\verb in prose as prose, and the real display as the only display', () => {
    expect(mmd).toMatch(/says\s+that \\begin\{equation\} starts one/);
    expect([...mmd.matchAll(/\\\[/g)]).toHaveLength(1);
    expect(mmd).toMatch(/\\\[\s*x\^\{2\}\+y\^\{2\}=z\^\{2\}\s*\\\]/);
  });
});
