/**
 * Born-digital PDF → MMD: pages per second on one core, against pdf.js's bare getTextContent of
 * the same pages in the same run (the practical ceiling), plus worker-side memory.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { convertDocument } from '../worker/document/pipeline/index.js';
import { pagedPdf, headingAndParagraphsPdf, twoColumnPdf } from '../test/support/pdf-fixtures.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

async function bareTextContent(data: Buffer): Promise<number> {
  const doc = await getDocument({ data: new Uint8Array(data), isEvalSupported: false, disableFontFace: true, useSystemFonts: false }).promise;
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    await page.getTextContent();
    page.cleanup();
  }
  const pages = doc.numPages;
  await doc.destroy();
  return pages;
}

export async function benchDocuments(): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-bench-docs-'));
  try {
    const docs = [await pagedPdf(100), await headingAndParagraphsPdf(), await twoColumnPdf()];
    const files: string[] = [];
    for (const [i, d] of docs.entries()) {
      files.push(join(dir, `${i}.pdf`));
      await writeFile(files[i]!, d);
    }
    await convertDocument(files[0]!, {}); // warm-up
    let pages = 0;
    let t = performance.now();
    for (let r = 0; r < ROUNDS; r++) for (const f of files) pages += (await convertDocument(f, {})).pages.length;
    const folioRate = pages / ((performance.now() - t) / 1000);
    let barePages = 0;
    t = performance.now();
    for (let r = 0; r < ROUNDS; r++) for (const d of docs) barePages += await bareTextContent(d);
    const bareRate = barePages / ((performance.now() - t) / 1000);
    return {
      pages,
      folio_pages_per_second: Math.round(folioRate * 10) / 10,
      bare_get_text_content_pages_per_second: Math.round(bareRate * 10) / 10,
      ratio_to_bare: Math.round((folioRate / bareRate) * 100) / 100,
      rss_mb: Math.round(process.memoryUsage().rss / 1048576),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
