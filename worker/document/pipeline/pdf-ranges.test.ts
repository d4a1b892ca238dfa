import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assemblePdf } from '../../../test/support/pdf-fixtures.js';
import { openPdfFile } from './pdf.js';

/**
 * pdf.js fetches every page object of a flat page tree each time it opens a document (it checks
 * the last page), and keeps every range it reads until the document is closed. A scanned book
 * puts each page object beside its image, so each range pdf.js asks for costs one read unit per
 * page at every open: with 1 MiB units a 2 GB document of 121 pages held 121 MiB after each
 * open, over the 64 MiB past which the reader reopens it, so it was reopened after every page.
 */

const PAGES = 40;
/** What lies between two page objects, as a page's image would. */
const GAP_BYTES = 512 * 1024;

let dir: string;
let path: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-pdf-ranges-'));
  path = join(dir, 'book.pdf');
  const filler = ' '.repeat(GAP_BYTES);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Count ${PAGES} /Kids [${Array.from({ length: PAGES }, (_, i) => `${3 + 2 * i} 0 R`).join(' ')}] >>`,
  ];
  for (let i = 0; i < PAGES; i++)
    objects.push('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>', `<< /Length ${GAP_BYTES} >>\nstream\n${filler}\nendstream`);
  await writeFile(path, assemblePdf(objects));
});

afterAll(() => rm(dir, { recursive: true, force: true }));

it('opens a document of many pages by reading its page objects, not the bytes between them', async () => {
  const { size } = await stat(path);
  const pdf = await openPdfFile(path);
  try {
    expect(pdf.doc.numPages).toBe(PAGES);
    await pdf.doc.getPage(PAGES);
    expect(pdf.bytesRead()).toBeLessThan(size / 4);
  } finally {
    await pdf.close();
  }
});
