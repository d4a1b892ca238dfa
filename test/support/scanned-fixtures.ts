import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';

const run = promisify(execFile);

/**
 * A "scanned" PDF: each page of `source` rendered to pixels by Debian's pdftoppm at `dpi`, then
 * placed as the only content of an image-only page — no text layer survives.
 */
export async function scannedPdf(source: Buffer, dpi = 150): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-scan-fixture-'));
  try {
    await writeFile(join(dir, 'in.pdf'), source);
    const src = await PDFDocument.load(source);
    const out = await PDFDocument.create();
    for (let n = 1; n <= src.getPageCount(); n++) {
      await run('pdftoppm', ['-r', String(dpi), '-f', String(n), '-l', String(n), '-png', '-singlefile', join(dir, 'in.pdf'), join(dir, `p${n}`)]);
      const png = await out.embedPng(await readFile(join(dir, `p${n}.png`)));
      const { width, height } = src.getPage(n - 1).getSize();
      out.addPage([width, height]).drawImage(png, { x: 0, y: 0, width, height });
    }
    return Buffer.from(await out.save());
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
