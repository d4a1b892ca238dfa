import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { noisySkewed, SCAN_BENCH_DPI, scanSkew } from '../../../bench/scanned-renders.js';

const run = promisify(execFile);

/** How the pages of a scanned copy are taken: as rendered, or as a scanner takes them (bench/scanned-renders.ts noisySkewed). */
export type ScanMode = 'clean' | 'noisy';

/**
 * A scanned copy of a PDF: every page rasterised by pdftoppm at `dpi` in grey and drawn as the only
 * content of a page of the same size, so the copy has no text layer and `/v3/pdf` reads it by OCR
 * as it reads a scan. 'noisy' passes each page through the bench's scanner (turned by scanSkew of
 * its index, softened, grainy, dusty; seeded by the page number, so a copy is the same every run).
 */
export async function scannedCopy(pdf: Buffer, mode: ScanMode, dpi = SCAN_BENCH_DPI): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-texdoc-scan-'));
  try {
    const source = await PDFDocument.load(pdf, { ignoreEncryption: true });
    const copy = await PDFDocument.create();
    await writeFile(join(dir, 'source.pdf'), pdf);
    await run('pdftoppm', ['-r', String(dpi), '-gray', '-png', join(dir, 'source.pdf'), join(dir, 'p')]);
    const files = (await readdir(dir)).filter((f) => f.endsWith('.png')).sort();
    for (const [i, file] of files.entries()) {
      let png: Buffer = await readFile(join(dir, file));
      if (mode === 'noisy') png = await noisySkewed(png, scanSkew(i), i + 1);
      const { width, height } = source.getPage(i).getSize();
      copy.addPage([width, height]).drawImage(await copy.embedPng(png), { x: 0, y: 0, width, height });
    }
    return Buffer.from(await copy.save());
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
