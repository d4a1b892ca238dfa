import sharp from 'sharp';
import { moleculePng, osraHostilePng } from './chemistry-images.js';
import { compileLatex, type LatexPdf } from './latex-pdf.js';

/**
 * Test support: a pdflatex paper with three structure diagrams (Open Babel drawings) among its
 * paragraphs, and on the same pages a line plot and a labelled triangle that must stay figures.
 * Optionally a figure crafted to keep OSRA busy far past its limit.
 */

/** The three structures in the order they stand, as Open Babel's canonical SMILES. */
export const PAPER_STRUCTURES = [
  { smiles: 'CC(=O)Oc1ccccc1C(=O)O', inchikey: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N' },
  { smiles: 'Cn1cnc2c1c(=O)n(C)c(=O)n2C', inchikey: 'RYYVLZVUVIJVGH-UHFFFAOYSA-N' },
  { smiles: 'OC(=O)c1ccccc1O', inchikey: 'YGSDEFSMJLZEOE-UHFFFAOYSA-N' },
] as const;

const svgPng = (svg: string) => sharp(Buffer.from(svg), { density: 225 }).flatten({ background: '#ffffff' }).png().toBuffer();

/** A sine curve over axes with ticks and tick labels. */
export function plotPng(): Promise<Buffer> {
  const ticks = [1, 2, 3, 4, 5].map((v, i) => `<line x1="${80 + i * 60}" y1="260" x2="${80 + i * 60}" y2="267"/>`).join('');
  const labels = [1, 2, 3, 4, 5].map((v, i) => `<text x="${76 + i * 60}" y="282">${v}</text>`).join('');
  const curve = Array.from({ length: 60 }, (_, i) => `${40 + i * 5.6},${(150 - 90 * Math.sin(i / 8)).toFixed(1)}`).join(' ');
  return svgPng(
    `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="white"/><g stroke="black" stroke-width="2" fill="none"><line x1="40" y1="260" x2="380" y2="260"/><line x1="40" y1="260" x2="40" y2="20"/>${ticks}<polyline points="${curve}"/></g><g font-family="sans-serif" font-size="14">${labels}<text x="200" y="298">t (s)</text></g></svg>`,
  );
}

/** A triangle with a median, its vertices labelled O, N and H (letters a chemist would use). */
export function trianglePng(): Promise<Buffer> {
  return svgPng(
    `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="260"><rect width="300" height="260" fill="white"/><g stroke="black" stroke-width="2" fill="none"><polygon points="40,220 260,220 150,40"/><line x1="150" y1="40" x2="150" y2="220"/></g><g font-family="serif" font-size="20"><text x="20" y="240">O</text><text x="265" y="240">N</text><text x="145" y="30">H</text></g></svg>`,
  );
}

const PROSE = 'The compounds below were prepared as described in the methods and characterised by NMR spectroscopy; yields are given after purification.';

const figure = (name: string, widthIn: number) => `\\begin{center}\\includegraphics[width=${widthIn}in]{${name}}\\end{center}\n\n`;

/** The paper; with `hostile`, its second page starts with the crafted figure. */
export async function chemistryPaperPdf(opts: { hostile?: boolean } = {}): Promise<LatexPdf> {
  const files: Record<string, Buffer> = {
    'm1.png': await moleculePng(PAPER_STRUCTURES[0].smiles),
    'm2.png': await moleculePng(PAPER_STRUCTURES[1].smiles),
    'm3.png': await moleculePng(PAPER_STRUCTURES[2].smiles),
    'plot.png': await plotPng(),
    'triangle.png': await trianglePng(),
  };
  if (opts.hostile) files['hostile.png'] = await osraHostilePng();
  const body = [
    `\\section{Synthesis}\n${PROSE}\n\n`,
    figure('m1.png', 1.33),
    `${PROSE}\n\n`,
    figure('plot.png', 2.5),
    `Figure 1: Conversion over time.\n\n`,
    figure('m2.png', 1.33),
    `${PROSE}\n\n\\newpage\n`,
    opts.hostile ? figure('hostile.png', 4.5) : '',
    `\\section{Discussion}\n${PROSE}\n\n`,
    figure('triangle.png', 2),
    `${PROSE}\n\n`,
    figure('m3.png', 1.33),
    `${PROSE}\n`,
  ].join('');
  return compileLatex(body, { packages: 'graphicx', files });
}
