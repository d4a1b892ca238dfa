import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { strokesFromTex } from '../../models/training/strokes-render.js';
import { handwrittenFixtures } from './handwriting.js';

const run = promisify(execFile);

/**
 * Stand-ins for mpxpy's test fixtures, which its repository keeps as Git LFS pointers: PDFs typeset
 * by pdflatex, images rasterised from them by pdftoppm and sharp; the handwritten cases_hw.png and
 * quadratic_eq.json from real pen strokes (handwriting.ts), or, when the shared data sets are
 * absent (the run says so), typeset and traced from MathJax glyphs. Built here on every run, never
 * committed.
 */

async function pdflatex(body: string): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-compat-'));
  try {
    await writeFile(join(dir, 'a.tex'), `\\documentclass{article}\\usepackage{amsmath}\\begin{document}${body}\\end{document}`);
    await run('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'a.tex'], { cwd: dir, timeout: 60_000 });
    return await readFile(join(dir, 'a.pdf'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The first page of `pdf` at `dpi`, cropped to its ink with a white margin. */
async function raster(pdf: Buffer, format: 'png' | 'jpeg', dpi = 150): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-compat-'));
  try {
    await writeFile(join(dir, 'a.pdf'), pdf);
    await run('pdftoppm', ['-r', String(dpi), '-png', '-singlefile', 'a.pdf', 'page'], { cwd: dir });
    const img = sharp(await readFile(join(dir, 'page.png')))
      .trim({ threshold: 10 })
      .extend({ top: 20, bottom: 20, left: 20, right: 20, background: '#ffffff' });
    return await (format === 'png' ? img.png() : img.jpeg({ quality: 92 })).toBuffer();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const CASES = '\\pagestyle{empty}\\[ f(x)=\\begin{cases} x^{2} & x \\geq 0 \\\\ -x & x<0 \\end{cases} \\]';
const CODE = '\\pagestyle{empty}\\begin{verbatim}\ndef area(r):\n    return 3.14159 * r * r\n\nprint(area(2))\n\\end{verbatim}';

const paragraph = (topic: string) =>
  `The ${topic} is described here in plain prose, long enough to wrap over several lines of the page. ` +
  'Each sentence gives the reader something to search for, and the equation below it is set in display style.';

function essay(title: string, sections: number): string {
  let body = `\\title{${title}}\\date{}\\maketitle`;
  for (let i = 1; i <= sections; i++) {
    body += `\\section{Part ${i}}${paragraph(`part number ${i}`)}\\[ E_{${i}} = m c^{2} + \\frac{a_{${i}}}{b} \\]${paragraph('closing remark')}`;
  }
  return body;
}

const TABLE = '\\begin{tabular}{|l|r|}\\hline Item & Value \\\\ \\hline Alpha & 1 \\\\ Beta & 2 \\\\ \\hline\\end{tabular}';

const tenth = (v: number) => Math.round(v * 10) / 10;

/** Files the tests read from tests/files, by their path there. */
export async function localFixtures(): Promise<Record<string, Buffer>> {
  const handwritten = await handwrittenFixtures();
  if (!handwritten) console.warn('client-compat: no pen-stroke data sets (FOLIO_DATASETS): cases_hw.png is typeset and quadratic_eq.json traced');
  const written = handwritten?.quadratic ?? (await strokesFromTex('x^{2}+2x+1=0', 'tex', 48));
  return {
    'images/cases_hw.png': handwritten?.casesPng ?? (await raster(await pdflatex(CASES), 'png')),
    'images/code_5.jpg': await raster(await pdflatex(CODE), 'jpeg'),
    'pdfs/sample.pdf': await pdflatex(`\\section{Sample}${paragraph('sample document')}\\[ x = \\frac{-b \\pm \\sqrt{b^{2}-4ac}}{2a} \\]${TABLE}`),
    'pdfs/the-internet-tidal-wave.pdf': await pdflatex(essay('The Internet Tidal Wave', 3)),
    'pdfs/theres-plenty-of-room-at-the-bottom.pdf': await pdflatex(essay('Plenty of Room at the Bottom', 4)),
    'strokes/quadratic_eq.json': Buffer.from(JSON.stringify({ strokes: { x: written.map((w) => w.x.map(tenth)), y: written.map((w) => w.y.map(tenth)) } })),
  };
}

/** Files the tests fetch from https://mathpix-ocr-examples.s3.amazonaws.com, by their path there. */
export async function remoteFixtures(): Promise<Record<string, Buffer>> {
  return {
    '/algebra.jpg': await raster(await pdflatex('\\pagestyle{empty}\\[ 3x + 5 = 2x - 7 \\]'), 'jpeg'),
    '/quadratic.jpg': await raster(await pdflatex('\\pagestyle{empty}\\[ x^{2} - 5x + 6 = 0 \\]'), 'jpeg'),
    '/cases_hw.jpg': await raster(await pdflatex(CASES), 'jpeg'),
    '/bitcoin-7.pdf': await pdflatex(essay('A Peer-to-Peer Electronic Cash System', 2)),
  };
}
