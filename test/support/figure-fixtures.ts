import sharp from 'sharp';
import { compileLatex, type LatexPdf } from './latex-pdf.js';

/**
 * Test support: a two-page pdflatex paper with two figures — an embedded raster image and a
 * picture-environment line drawing — each with a caption below, plus things that must not count
 * as figures (a ruled table, a fraction bar, an underline). Units are the figures' sizes on the page.
 */

export const RASTER_CAPTION = 'Figure 1: A raster chart of bars.';
export const DRAWING_CAPTION = 'Figure 2: A line drawing of a house.';
/** The raster figure's width and height on the page, in points (\includegraphics[width=...]). */
export const RASTER_SIZE_PT = { width: 216, height: 144 };
/** The picture environment's box, in points (\unitlength=1pt). */
export const DRAWING_SIZE_PT = { width: 180, height: 120 };
export const FIGURE_COUNT = 2;

/** A 600 × 400 PNG of coloured bars on white: plenty of ink, no text. */
export async function barChartPng(): Promise<Buffer> {
  const [w, h] = [600, 400];
  const px = Buffer.alloc(w * h * 3, 255);
  const bars = [120, 260, 180, 340, 220];
  bars.forEach((height, i) => {
    for (let y = h - 20 - height; y < h - 20; y++) for (let x = 40 + i * 110; x < 120 + i * 110; x++) px.set([40 + i * 40, 90, 200 - i * 30], (y * w + x) * 3);
  });
  for (let x = 20; x < w - 20; x++) px.set([0, 0, 0], ((h - 20) * w + x) * 3);
  return sharp(px, { raw: { width: w, height: h, channels: 3 } })
    .png()
    .toBuffer();
}

const BODY = String.raw`
\section{Results}
The measurements below were taken over five days. Each bar of the chart shows the mean of one
day, and the drawing after it shows the apparatus as it stood in the laboratory.

\begin{figure}[h]
\centering
\includegraphics[width=216pt,height=144pt]{chart.png}
\caption{A raster chart of bars.}
\end{figure}

The ratio we report is \[ r = \frac{a+b}{c} \] and the \underline{underlined words} matter.

\begin{center}
\begin{tabular}{|l|r|}
\hline
Day & Mean \\ \hline
One & 12 \\ \hline
Two & 26 \\ \hline
\end{tabular}
\end{center}

\newpage
\section{Apparatus}
The frame was built from straight members as in the drawing below.

\begin{figure}[h]
\centering
\setlength{\unitlength}{1pt}
\begin{picture}(180,120)
\put(0,0){\line(1,0){180}}
\put(0,0){\line(0,1){80}}
\put(180,0){\line(0,1){80}}
\put(0,80){\line(1,0){180}}
\put(0,80){\line(3,1){90}}
\put(180,80){\line(-3,1){90}}
\put(70,0){\framebox(40,50){}}
\put(20,40){\line(1,0){30}}
\put(130,40){\line(1,0){30}}
\end{picture}
\caption{A line drawing of a house.}
\end{figure}

The members were joined with bolts and the whole frame was painted white before the tests.
`;

export type FigurePaper = LatexPdf;

/** Compiles the paper (article, graphicx) in a fresh temp folder. */
export function figurePaperPdf(): Promise<FigurePaper> {
  return barChartPng().then((chart) => compileLatex(BODY, { packages: 'graphicx', files: { 'chart.png': chart } }));
}
