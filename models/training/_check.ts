import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { symbolsFromImage } from '../../worker/engine/math/image/symbols-from-image.js';
const formulas = ['x+2=5', 'a \\leq b', 'i\\;j', '\\frac{a}{b}-c', '\\sum_{i=1}^{n} \\alpha_i x^2 + \\frac{\\beta}{y} \\leq 42 \\pi', 'f(x) = \\int_0^1 e^{-t} dt', '\\sqrt{x^2+y^2} \\geq |z|', 'A \\cup B \\subseteq \\mathbb{R}', '\\lim_{n \\to \\infty} \\|v_n\\| = 0', 'P(X=k) \\approx \\lambda^k e^{-\\lambda}'];
const dir = await mkdtemp(join(tmpdir(), 'chk-'));
await writeFile(join(dir, 'f.tex'), ['\\documentclass{article}', '\\usepackage{amsmath,amssymb}', '\\usepackage[paperwidth=12cm,paperheight=2.5cm,margin=0.5cm]{geometry}', '\\pagestyle{empty}', '\\begin{document}', ...formulas.map((f) => `\\noindent$${f}$\\newpage`), '\\end{document}'].join('\n'));
execFileSync('pdflatex', ['-interaction=nonstopmode', 'f.tex'], { cwd: dir, stdio: 'ignore' });
for (const dpi of [150, 300]) {
  execFileSync('pdftoppm', ['-r', String(dpi), '-gray', 'f.pdf', `p${dpi}`], { cwd: dir });
  const files = (await readdir(dir)).filter((f) => f.startsWith(`p${dpi}-`)).sort();
  for (const [i, file] of files.entries()) {
    const bytes = await readFile(join(dir, file));
    const header = bytes.subarray(0, 64).toString('latin1').match(/^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/)!;
    const image = { width: +header[1], height: +header[2], data: new Uint8Array(bytes.subarray(header[0].length)) };
    const symbols = await symbolsFromImage(image);
    console.log(dpi, formulas[i], '→', symbols.map((s) => s.latex).join(' '));
  }
}
