import { compileLatex, type LatexPdf } from './latex-pdf.js';

/**
 * Test support: a small screen page (6 × 4.5 in, 0.15 in margins, sans-serif, as web.sty and
 * beamer pages are) dressed to its edges, typeset by pdflatex: a coloured bar down its left side
 * (eso-pic), or a dark slide background with light text. It holds a heading between two rules
 * from margin to margin, a numbered display (DRESSED_DISPLAY) and prose.
 */

export type Dress = 'side bar' | 'dark background';

/** The page's display, as the maths engine writes it. */
export const DRESSED_DISPLAY = "u''+c(x)u=0";
export const DRESSED_PROSE = 'Every solution of this equation has infinitely many zeros on the half line.';

const BODY = String.raw`
\noindent\leaders\hrule height 0.8pt\hfill\ \textsc{Concept of oscillation}\ \leaders\hrule height 0.8pt\hfill\null
\begin{equation}
u'' + c(x)u = 0
\end{equation}
${DRESSED_PROSE}
Equations of this kind are called oscillatory, and all definitions are equivalent.
`;

const DRESS: Record<Dress, string> = {
  'side bar': '\\AddToShipoutPicture{\\color[RGB]{10,80,40}\\rule{0.5em}{\\paperheight}}',
  'dark background': '\\pagecolor[RGB]{46,52,64}\\color[RGB]{216,222,233}',
};

/** The dressed page, with `more` (LaTeX) after its prose. */
export function dressedPagePdf(dress: Dress, more = ''): Promise<LatexPdf> {
  const page = '\\usepackage[paperwidth=6in,paperheight=4.5in,margin=0.15in]{geometry}\n\\renewcommand{\\familydefault}{\\sfdefault}';
  return compileLatex(`${BODY}\n${more}`, { packages: 'amsmath,xcolor,eso-pic', preamble: `${page}\n${DRESS[dress]}` });
}
