/**
 * Born-digital PDF → MMD: pages per second on one core, against pdf.js's bare getTextContent of
 * the same pages in the same run (the practical ceiling), plus worker-side memory. Scanned pages:
 * the same pipeline with the OCR engine in-process (page rendered at SCAN_DPI, PP-OCRv4 lines →
 * glyphs), as a document worker and an inference worker do it between them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { convertDocument } from '../worker/document/pipeline/index.js';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { TextRecognizer } from '../worker/engine/text/index.js';
import { SCAN_DPI } from '../worker/document/scanned-pages.js';
import type { OcrPage } from '../worker/document/pipeline/index.js';
import { pagedPdf, headingAndParagraphsPdf, twoColumnPdf } from '../test/support/pdf-fixtures.js';
import { scannedPdf } from '../test/support/scanned-fixtures.js';

const run = promisify(execFile);
/** Scanned pages read per round (OCR is ~100× slower than the text layer). */
const SCANNED_PAGES = Number(process.env.BENCH_SCANNED_PAGES ?? 4);

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
    const scanned = await scannedRate(dir);
    return {
      pages,
      folio_pages_per_second: Math.round(folioRate * 10) / 10,
      scanned_pages: scanned.pages,
      scanned_pages_per_second: Math.round(scanned.rate * 100) / 100,
      bare_get_text_content_pages_per_second: Math.round(bareRate * 10) / 10,
      ratio_to_bare: Math.round((folioRate / bareRate) * 100) / 100,
      rss_mb: Math.round(process.memoryUsage().rss / 1048576),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Scanned pages per second: a paged PDF rasterised at 150 dpi, read through the OCR engine in-process. */
async function scannedRate(dir: string): Promise<{ pages: number; rate: number }> {
  const recognizer = await TextRecognizer.load();
  const file = join(dir, 'scanned.pdf');
  await writeFile(file, await scannedPdf(await pagedPdf(SCANNED_PAGES)));
  const ocr =
    (pdfPath: string): OcrPage =>
    async (page) => {
      const prefix = join(dir, `scan-${page}`);
      await run('pdftoppm', ['-r', String(SCAN_DPI), '-f', String(page), '-l', String(page), '-png', '-singlefile', pdfPath, prefix]);
      const r = await recognizer.recognize(await readFile(`${prefix}.png`));
      // Text only (no maths regions): the bench measures the text model's pace.
      return { read: { lines: r.lines.map((l) => ({ ...l, kind: 'text' as const })), width: r.width, height: r.height }, scale: 72 / SCAN_DPI };
    };
  await convertDocument(file, { pageRanges: '1' }, { ocr }); // warm-up: model sessions
  const t = performance.now();
  const pages = (await convertDocument(file, {}, { ocr })).pages.length;
  return { pages, rate: pages / ((performance.now() - t) / 1000) };
}
