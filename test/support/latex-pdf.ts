import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { getDocument, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** Test support: born-digital maths PDFs made by pdflatex on the spot, opened the way the pipeline opens them. */

const run = promisify(execFile);

export interface LatexPdf {
  path: string;
  dir: string;
  cleanup: () => Promise<void>;
}

export interface CompileOptions {
  /** `\usepackage` list. @default 'amsmath,amssymb' */
  packages?: string;
  /** Preamble lines after the packages (font declarations, theorem styles). */
  preamble?: string;
  /** Typeset with latex, dvips and ps2pdf (Ghostscript) instead of pdflatex: the PDF a PostScript workflow makes. */
  viaDvips?: boolean;
  /** Files the document needs beside it (images for `\includegraphics`), by name. */
  files?: Record<string, Buffer>;
}

/** Compiles an article-class document with `body` into a PDF in a fresh temp dir. */
export async function compileLatex(body: string, opts: CompileOptions = {}): Promise<LatexPdf> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-testpdf-'));
  for (const [name, bytes] of Object.entries(opts.files ?? {})) await writeFile(join(dir, name), bytes);
  const tex = [
    '\\documentclass{article}',
    `\\usepackage{${opts.packages ?? 'amsmath,amssymb'}}`,
    opts.preamble ?? '',
    '\\pagestyle{empty}',
    '\\begin{document}',
    body,
    '\\end{document}',
  ].join('\n');
  await writeFile(join(dir, 'doc.tex'), tex);
  try {
    if (opts.viaDvips) {
      await run('latex', ['-interaction=nonstopmode', '-halt-on-error', 'doc.tex'], { cwd: dir, timeout: 60_000 });
      await run('dvips', ['-q', '-o', 'doc.ps', 'doc.dvi'], { cwd: dir, timeout: 60_000 });
      await run('ps2pdf', ['doc.ps', 'doc.pdf'], { cwd: dir, timeout: 60_000 });
    } else await run('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'doc.tex'], { cwd: dir, timeout: 60_000 });
  } catch (err) {
    const log = await readFile(join(dir, 'doc.log'), 'utf8').catch(() => '');
    await rm(dir, { recursive: true, force: true });
    throw new Error(
      `pdflatex failed: ${(err as Error).message}\n${log
        .split('\n')
        .filter((l) => l.startsWith('!'))
        .join('\n')}`,
    );
  }
  return { path: join(dir, 'doc.pdf'), dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Opens a PDF with the options worker/document/pipeline/pdf.ts uses (outlines shipped, no DOM). */
export async function openTestPdf(path: string): Promise<PDFDocumentProxy> {
  const data = new Uint8Array(await readFile(path));
  return getDocument({ data, disableFontFace: true, useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
}

/**
 * Document options that keep each formula as the recogniser wrote it (`aligned`, `cases`, its
 * spacing) instead of the 4.2 default spelling (arrays, spaces removed): for tests of reading,
 * not of the output options.
 */
export const AS_RECOGNISED = { idiomaticEqnArrays: true, rmSpaces: false } as const;
