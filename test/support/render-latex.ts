import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';

const run = promisify(execFile);

/**
 * A LaTeX body typeset by pdflatex (Computer Modern, a renderer the symbol classifier never
 * trained on, unless `packages` load other fonts) and rasterised by pdftoppm at `dpi`, cropped to
 * its ink with a white margin.
 */
export async function renderLatex(body: string, dpi = 150, widthIn = 6, heightIn = 9, packages: string[] = []): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-math-'));
  try {
    const preamble = `\\documentclass{article}\\usepackage[paperwidth=${widthIn}in,paperheight=${heightIn}in,margin=0.5in]{geometry}\\usepackage{amsmath}${packages.map((name) => `\\usepackage{${name}}`).join('')}\\pagestyle{empty}`;
    await writeFile(join(dir, 'a.tex'), `${preamble}\\begin{document}${body}\\end{document}`);
    await run('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'a.tex'], { cwd: dir, timeout: 60_000 });
    await run('pdftoppm', ['-r', String(dpi), '-png', '-singlefile', 'a.pdf', 'page'], { cwd: dir });
    const page = await readFile(join(dir, 'page.png'));
    return await sharp(page).trim({ threshold: 10 }).extend({ top: 20, bottom: 20, left: 20, right: 20, background: '#ffffff' }).png().toBuffer();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
