/**
 * Scanned page → text: Folio's printed-text engine (worker/engine/text, PP-OCRv4 on
 * onnxruntime) against Debian's `tesseract` CLI on the same pages, rendered from PDFs whose text
 * is known by poppler's pdftoppm. Both run on one thread, so seconds per page are per core.
 * Character error rate compares whitespace-collapsed text, so line breaks and reading order
 * within a line do not count, only the characters read.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';
import { TextRecognizer } from '../worker/engine/text/index.js';

const run = promisify(execFile);
const DPI = Number(process.env.BENCH_OCR_DPI ?? 150);

const PROSE = (
  'Folio reads scanned pages and turns them into structured Markdown. Each page is decoded, its lines are found ' +
  'by a detector, and every line is read by a recogniser whose confidence is kept beside the text. Numbers such ' +
  'as 1984, 3.14 and 42% must survive, as must commas, semicolons; colons: and (parentheses). The quick brown ' +
  'fox jumps over the lazy dog. Pack my box with five dozen liquor jugs. Invoices dated 2024-03-17 list totals ' +
  'of $1,250.00 and EUR 980.40; reference QX-7731/B is due within 30 days. '
).split(' ').filter(Boolean);

const PAGES: { font: StandardFonts; size: number }[] = [
  { font: StandardFonts.Helvetica, size: 11 },
  { font: StandardFonts.TimesRoman, size: 11 },
  { font: StandardFonts.Courier, size: 10 },
  { font: StandardFonts.Helvetica, size: 9 },
];

/** A letter page filled with prose in one font, one-inch margins; returns its lines. */
function fillPage(doc: PDFDocument, font: PDFFont, size: number, offset: number): string[] {
  const page = doc.addPage([612, 792]);
  const lines: string[] = [];
  let w = offset;
  for (let y = 720; y >= 72; y -= size * 1.3) {
    let line = '';
    while (font.widthOfTextAtSize(`${line} ${PROSE[w % PROSE.length]}`.trim(), size) <= 468) line = `${line} ${PROSE[w++ % PROSE.length]}`.trim();
    page.drawText(line, { x: 72, y, size, font });
    lines.push(line);
  }
  return lines;
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Character error rate of `got` against `truth`, both whitespace-collapsed. */
export function characterErrorRate(truth: string, got: string): number {
  const t = collapse(truth);
  return levenshtein(t, collapse(got)) / t.length;
}

export interface OcrComparison {
  pages: number;
  dpi: number;
  folio_cer: number;
  tesseract_cer: number;
  folio_seconds_per_page: number;
  tesseract_seconds_per_page: number;
  tesseract_version: string;
}

export async function benchOcrVsTesseract(): Promise<OcrComparison> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-bench-ocr-'));
  const engine = await TextRecognizer.load({ intraOpThreads: 1, executionProviders: ['cpu'] });
  try {
    const images: { png: string; truth: string }[] = [];
    for (const [i, spec] of PAGES.entries()) {
      const doc = await PDFDocument.create();
      const lines = fillPage(doc, await doc.embedFont(spec.font), spec.size, i * 17);
      await writeFile(join(dir, `p${i}.pdf`), await doc.save());
      await run('pdftoppm', ['-r', String(DPI), '-gray', '-png', '-singlefile', join(dir, `p${i}.pdf`), join(dir, `p${i}`)]);
      images.push({ png: join(dir, `p${i}.png`), truth: lines.join('\n') });
    }
    await engine.recognize(await readFile(images[0]!.png)); // warm-up: first run allocates
    let folioSeconds = 0;
    let tesseractSeconds = 0;
    let folioErrors = 0;
    let tesseractErrors = 0;
    for (const img of images) {
      const png = await readFile(img.png);
      let t = performance.now();
      const folio = (await engine.recognize(png)).lines.map((l) => l.text).join('\n');
      folioSeconds += (performance.now() - t) / 1000;
      t = performance.now();
      const { stdout } = await run('tesseract', [img.png, 'stdout', '-l', 'eng', '--dpi', String(DPI)], { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, maxBuffer: 16 << 20 });
      tesseractSeconds += (performance.now() - t) / 1000;
      folioErrors += characterErrorRate(img.truth, folio);
      tesseractErrors += characterErrorRate(img.truth, stdout);
    }
    const version = (await run('tesseract', ['--version'])).stdout.split('\n')[0]!.trim();
    const n = images.length;
    const r3 = (x: number) => Math.round(x * 1000) / 1000;
    return {
      pages: n,
      dpi: DPI,
      folio_cer: r3(folioErrors / n),
      tesseract_cer: r3(tesseractErrors / n),
      folio_seconds_per_page: r3(folioSeconds / n),
      tesseract_seconds_per_page: r3(tesseractSeconds / n),
      tesseract_version: version,
    };
  } finally {
    await engine.release();
    await rm(dir, { recursive: true, force: true });
  }
}
