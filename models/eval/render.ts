import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Box } from '../../worker/engine/math/types.js';
import type { Formula } from './corpus.js';
import { cropImage, inkBox, readPgm, writePgm } from './pgm.js';

/**
 * Renders the corpus with a renderer the classifier never saw in training (it learnt from MathJax
 * SVG through resvg): pdflatex, one display formula a page, then pdftoppm at each resolution,
 * each page cropped to its ink with a margin. Everything lands in a cache folder named by a hash
 * of the document and these settings, so a re-run with an unchanged corpus skips straight to scoring.
 */

export const RESOLUTIONS_DPI = [150, 300] as const;
export type Dpi = (typeof RESOLUTIONS_DPI)[number];

/** White space kept around the ink, in inches (6 px at 150 dpi). */
const MARGIN_IN = 0.04;
/** Pages rasterised per pdftoppm call: bounds the uncropped pages on disk (about 2 MB each at 300 dpi). */
const PAGES_PER_BATCH = 40;
const PDFLATEX_TIMEOUT_MS = 120_000;
const PDFTOPPM_TIMEOUT_MS = 120_000;

/** What is typeset: one display a page. */
export interface Typeset {
  id: string;
  latex: string;
}

export interface RenderOptions<F extends Typeset> {
  /** The page's content, on one line; by default the formula in `\\[ … \\]`. */
  page?: (formula: F) => string;
  /** Page height: a short wide page keeps rasters small; a page of several displayed rows needs more. */
  paperHeightIn?: number;
}

// A display formula never breaks, so 7 in of line is room enough.
const preamble = (paperHeightIn: number) => [
  '\\documentclass{article}',
  `\\usepackage[paperwidth=8in,paperheight=${paperHeightIn}in,margin=0.5in]{geometry}`,
  '\\usepackage{amsmath,amssymb}',
  '\\pagestyle{empty}',
  '\\begin{document}',
];
const PREAMBLE_LINES = preamble(3).length;

export interface Crop {
  /** The cropped page, 8-bit PGM. */
  path: string;
  /** Where the crop sits on the page raster, in pixels; the PDF point (x, y) is pixel (x·dpi/72 − box.x0, y·dpi/72 − box.y0). */
  box: Box;
}

export interface RenderedFormula<F extends Typeset = Formula> {
  formula: F;
  /** 1-based page of the PDF holding this formula alone. */
  page: number;
  crops: Record<Dpi, Crop>;
}

export interface RenderedCorpus<F extends Typeset = Formula> {
  pdfPath: string;
  formulas: RenderedFormula<F>[];
  fromCache: boolean;
}

const run = promisify(execFile);

/** The LaTeX document: formula i on line PREAMBLE_LINES + i, so a pdflatex error line names its formula. */
function texDocument<F extends Typeset>(formulas: readonly F[], options: RenderOptions<F>): string {
  const page = options.page ?? ((f: F) => `\\[ ${f.latex} \\]`);
  const pages = formulas.map((f) => `\\noindent${page(f).replace(/\s*\n\s*/gu, ' ')}\\clearpage`);
  return [...preamble(options.paperHeightIn ?? 3), ...pages, '\\end{document}', ''].join('\n');
}

/** pdflatex stopped at a formula: `formula` names it, so a caller may leave it out and try again. */
export class FormulaCompileError extends Error {
  constructor(
    message: string,
    readonly formula: Typeset | undefined,
  ) {
    super(message);
  }
}

/**
 * Renders (or finds in the cache) the PDF and the cropped page images of every formula.
 * @throws Error naming the formula pdflatex stopped at, or the page that came out blank
 */
export async function renderCorpus<F extends Typeset = Formula>(
  formulas: readonly F[],
  cacheRoot: string,
  options: RenderOptions<F> = {},
): Promise<RenderedCorpus<F>> {
  const tex = texDocument(formulas, options);
  const key = createHash('sha256').update(JSON.stringify({ tex, RESOLUTIONS_DPI, MARGIN_IN })).digest('hex').slice(0, 16);
  const dir = join(cacheRoot, key);
  const indexPath = join(dir, 'index.json');
  if (existsSync(indexPath)) {
    const cached = JSON.parse(await readFile(indexPath, 'utf8')) as RenderedCorpus<F>;
    return { ...inFolder(dir, cached), fromCache: true };
  }

  // Build beside the final folder and rename at the end, so an interrupted run never leaves a half cache.
  const work = `${dir}.partial-${process.pid}`;
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  await compile(tex, formulas, work).catch(async (err: unknown) => {
    await rm(work, { recursive: true, force: true });
    throw err;
  });
  const rendered: RenderedFormula<F>[] = formulas.map((formula, i) => ({
    formula,
    page: i + 1,
    crops: {} as Record<Dpi, Crop>,
  }));
  for (const dpi of RESOLUTIONS_DPI) {
    await mkdir(join(work, String(dpi)));
    for (let first = 1; first <= formulas.length; first += PAGES_PER_BATCH) {
      const last = Math.min(first + PAGES_PER_BATCH - 1, formulas.length);
      await rasterise(join(work, 'formulas.pdf'), dpi, first, last, work);
      for (const item of rendered.slice(first - 1, last)) {
        item.crops[dpi] = await cropPage(work, dpi, item);
      }
    }
  }
  // Paths in the index are relative to the cache folder, so the checkout can move.
  const index: RenderedCorpus<F> = { pdfPath: 'formulas.pdf', formulas: rendered, fromCache: false };
  await writeFile(join(work, 'index.json'), JSON.stringify(index));
  await rm(dir, { recursive: true, force: true });
  await rename(work, dir);
  await removeStaleCaches(cacheRoot, key);
  return inFolder(dir, index);
}

function inFolder<F extends Typeset>(dir: string, index: RenderedCorpus<F>): RenderedCorpus<F> {
  const formulas = index.formulas.map((item) => ({
    ...item,
    crops: Object.fromEntries(RESOLUTIONS_DPI.map((dpi) => [dpi, { ...item.crops[dpi], path: join(dir, item.crops[dpi].path) }])) as Record<Dpi, Crop>,
  }));
  return { ...index, pdfPath: join(dir, index.pdfPath), formulas };
}

async function compile(tex: string, formulas: readonly Typeset[], work: string): Promise<void> {
  await writeFile(join(work, 'formulas.tex'), tex);
  try {
    await run('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape', 'formulas.tex'], {
      cwd: work,
      timeout: PDFLATEX_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (err) {
    const log = await readFile(join(work, 'formulas.log'), 'utf8').catch(() => '');
    const line = Number(/^l\.(\d+)/m.exec(log)?.[1]);
    const culprit = formulas[line - PREAMBLE_LINES - 1];
    const message = /^! .*$/m.exec(log)?.[0] ?? (err as Error).message;
    throw new FormulaCompileError(`pdflatex failed${culprit ? ` on ${culprit.id} (${culprit.latex})` : ''}: ${message}`, culprit);
  }
}

async function rasterise(pdf: string, dpi: Dpi, first: number, last: number, work: string): Promise<void> {
  const args = ['-gray', '-r', String(dpi), '-f', String(first), '-l', String(last), pdf, join(work, String(dpi), 'page')];
  await run('pdftoppm', args, { timeout: PDFTOPPM_TIMEOUT_MS });
}

/** Crops one page raster (pdftoppm names it page-<n>.pgm, n zero-padded to the page count's width). */
async function cropPage(work: string, dpi: Dpi, item: RenderedFormula<Typeset>): Promise<Crop> {
  const pagesDir = join(work, String(dpi));
  const name = (await readdir(pagesDir)).find((file) => Number(/^page-(\d+)\.pgm$/.exec(file)?.[1]) === item.page);
  if (!name) throw new Error(`pdftoppm wrote no page ${item.page} at ${dpi} dpi`);
  const page = await readPgm(join(pagesDir, name));
  const ink = inkBox(page);
  if (!ink) throw new Error(`${item.formula.id} (${item.formula.latex}) rendered a blank page`);
  const margin = Math.round(MARGIN_IN * dpi);
  const box = { x0: ink.x0 - margin, y0: ink.y0 - margin, x1: ink.x1 + margin, y1: ink.y1 + margin };
  const file = join(String(dpi), `${item.formula.id}.pgm`);
  await writePgm(join(work, file), cropImage(page, box));
  await rm(join(pagesDir, name));
  return { path: file, box };
}

async function removeStaleCaches(cacheRoot: string, keep: string): Promise<void> {
  for (const entry of await readdir(cacheRoot)) {
    if (entry !== keep && !entry.includes('.partial-')) await rm(join(cacheRoot, entry), { recursive: true, force: true });
  }
}
