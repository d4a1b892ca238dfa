/**
 * The held-out test set from a renderer never used in training: every recipe typeset by pdflatex
 * (Computer Modern, 10 pt and 14.4 pt), rasterised by pdftoppm at 150 and 300 dpi, cropped by the
 * inference pipeline: `npx tsx models/training/generate-latex-heldout.ts` → data/latex-{150,300}.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GrayImage } from '../../worker/engine/math/types.js';
import { IMAGE_CLASSES } from '../../worker/engine/math/image/vocabulary.js';
import { CropWriter, cropOfSingleSymbol } from './dataset.js';
import { allRecipes } from './recipes.js';

const SIZES = [
  { command: '\\normalsize', pt: 10 },
  { command: '\\Large', pt: 14.4 },
];
const DPIS = [150, 300];
const TEX_PT_PER_INCH = 72.27;
const out = process.argv[2] ?? 'models/training/data';

/** Parses the binary PGM (P5, 8-bit) pdftoppm writes with -gray. */
export function parsePgm(bytes: Buffer): GrayImage {
  const header = bytes
    .subarray(0, 64)
    .toString('latin1')
    .match(/^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/);
  if (!header || header[3] !== '255') throw new Error('not an 8-bit binary PGM');
  const width = Number(header[1]);
  const height = Number(header[2]);
  return { width, height, data: new Uint8Array(bytes.subarray(header[0].length, header[0].length + width * height)) };
}

const pages: Array<{ label: number; pt: number; source: number }> = [];
const body: string[] = [];
for (const { label, recipes } of allRecipes(IMAGE_CLASSES)) {
  for (const [source, size] of SIZES.entries()) {
    for (const tex of recipes) {
      pages.push({ label, pt: size.pt, source });
      body.push(`\\noindent{${size.command}$${tex}$}\\newpage`);
    }
  }
}
const dir = await mkdtemp(join(tmpdir(), 'folio-latex-'));
try {
  const document = [
    '\\documentclass[10pt]{article}',
    '\\usepackage{amsmath,amssymb}',
    '\\usepackage[paperwidth=3cm,paperheight=3cm,margin=0.6cm]{geometry}',
    '\\pagestyle{empty}',
    '\\begin{document}',
    ...body,
    '\\end{document}',
  ].join('\n');
  await writeFile(join(dir, 'symbols.tex'), document);
  execFileSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'symbols.tex'], { cwd: dir, stdio: 'ignore' });
  for (const dpi of DPIS) {
    execFileSync('pdftoppm', ['-r', String(dpi), '-gray', 'symbols.pdf', `p${dpi}`], { cwd: dir });
    const files = (await readdir(dir)).filter((f) => f.startsWith(`p${dpi}-`)).sort();
    if (files.length !== pages.length) throw new Error(`pdflatex made ${files.length} pages, expected ${pages.length}`);
    const writer = new CropWriter();
    let empty = 0;
    for (const [i, file] of files.entries()) {
      const { label, pt, source } = pages[i];
      const result = cropOfSingleSymbol(parsePgm(await readFile(join(dir, file))), (pt * dpi) / TEX_PT_PER_INCH);
      if (result) writer.add(result.crop, label, source);
      else empty++;
    }
    await writer.write(join(out, `latex-${dpi}`), { classes: IMAGE_CLASSES, sources: SIZES.map((s) => `pdflatex-cm-${s.pt}pt`), dpi });
    console.log(`${dpi} dpi: ${writer.count} crops (${empty} blank pages)`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
