import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, DEFAULT_MANIFEST_PATH, loadModelFile } from '../../worker/engine/models.js';
import { ctcCharset, hasEastAsianForms, latinClasses } from '../../worker/engine/text/ctc.js';
import { decodeImage } from '../../worker/engine/text/image.js';
import { CPU_RECOGNITION_MODEL, LATIN_RECOGNITION_MODEL, TextRecognizer, type OcrResult } from '../../worker/engine/text/index.js';
import { RecognitionBatcher } from '../../worker/engine/text/rec-batcher.js';
import { cropLine, runCrops } from '../../worker/engine/text/recognize.js';
import { HEADING_TEXT, PARAGRAPH_ONE, PARAGRAPH_TWO, headingAndParagraphsPdf } from '../support/pdf-fixtures.js';

/**
 * The printed-text engine on real models: pages are PDFs made with pdf-lib and rendered by
 * poppler's pdftoppm at 150 dpi, as a scanner at that resolution would deliver them.
 */

const execFileAsync = promisify(execFile);
const DPI = 150;
const PAGE_LINES = [HEADING_TEXT, ...PARAGRAPH_ONE, ...PARAGRAPH_TWO];

let dir: string;
let engine: TextRecognizer;
let page: Buffer;
let pageResult: OcrResult;

async function renderFirstPage(pdf: Buffer, name: string): Promise<Buffer> {
  const pdfPath = join(dir, `${name}.pdf`);
  await writeFile(pdfPath, pdf);
  await execFileAsync('pdftoppm', ['-r', String(DPI), '-png', '-f', '1', '-l', '1', '-singlefile', pdfPath, join(dir, name)]);
  return readFile(join(dir, `${name}.png`));
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/** Character error rate of `got` against `expected`, lines joined by newlines. */
function cer(expected: string[], got: string[]): number {
  const truth = expected.join('\n');
  return levenshtein(truth, got.join('\n')) / truth.length;
}

/** A letter page filled with 11 pt Helvetica prose, 14 pt leading, one-inch margins. */
async function fullLetterPagePdf(): Promise<{ pdf: Buffer; lines: string[] }> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const p = doc.addPage([612, 792]);
  const words = (
    'Folio reads scanned pages and turns them into structured Markdown. Each page is decoded, ' +
    'its lines are found by a detector, and every line is read by a recogniser whose confidence ' +
    'is kept beside the text. Numbers such as 1984, 3.14 and 42% must survive, as must commas, ' +
    'semicolons; colons: and (parentheses). The quick brown fox jumps over the lazy dog. '
  )
    .split(' ')
    .filter(Boolean);
  const lines: string[] = [];
  let w = 0;
  for (let y = 720; y >= 72; y -= 14) {
    let line = '';
    while (font.widthOfTextAtSize(`${line} ${words[w % words.length]}`.trim(), 11) <= 468) line = `${line} ${words[w++ % words.length]}`.trim();
    p.drawText(line, { x: 72, y, size: 11, font });
    lines.push(line);
  }
  return { pdf: Buffer.from(await doc.save()), lines };
}

/** White page with scattered black specks and bars: detector bait without any text. */
async function noisePng(width = 800, height = 600): Promise<Buffer> {
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const px = Buffer.alloc(width * height, 255);
  for (let n = 0; n < 400; n++) {
    const [x, y] = [Math.floor(rnd() * (width - 12)), Math.floor(rnd() * (height - 20))];
    const [bw, bh] = [2 + Math.floor(rnd() * 10), 2 + Math.floor(rnd() * 18)];
    for (let yy = y; yy < y + bh; yy++) px.fill(0, yy * width + x, yy * width + x + bw);
  }
  return sharp(px, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-ocr-'));
  const started = performance.now();
  engine = await TextRecognizer.load();
  console.log(
    `ocr engine: loaded in ${(performance.now() - started).toFixed(0)} ms, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB, providers ${engine.executionProviders.join(',')}`,
  );
  page = await renderFirstPage(await headingAndParagraphsPdf(), 'heading');
  pageResult = await engine.recognize(page);
});

afterAll(async () => {
  await engine?.release();
  await rm(dir, { recursive: true, force: true });
});

describe('TextRecognizer on a rendered page', () => {
  it('reads the heading and both paragraphs with at most 2 % character errors, in reading order', () => {
    const texts = pageResult.lines.map((l) => l.text);
    expect(texts).toHaveLength(PAGE_LINES.length);
    expect(cer(PAGE_LINES, texts)).toBeLessThanOrEqual(0.02);
    PAGE_LINES.forEach((line, i) => expect(cer([line], [texts[i]])).toBeLessThanOrEqual(0.05));
    const tops = pageResult.lines.map((l) => l.box.y);
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
    expect(pageResult).toMatchObject({ width: 1275, height: 1650, rotation: 0 });
  });

  it('keeps every box inside the image and every confidence in (0, 1]', () => {
    for (const { box, confidence } of pageResult.lines) {
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.width).toBeGreaterThan(0);
      expect(box.height).toBeGreaterThan(0);
      expect(box.x + box.width).toBeLessThanOrEqual(pageResult.width);
      expect(box.y + box.height).toBeLessThanOrEqual(pageResult.height);
      expect(confidence).toBeGreaterThan(0);
      expect(confidence).toBeLessThanOrEqual(1);
    }
    expect(pageResult.rotationConfidence).toBeGreaterThan(0.5);
  });

  it('is less sure of what it reads in noise than of clean text', async () => {
    const lenient = await TextRecognizer.load({ minLineConfidence: 0 });
    try {
      const noise = await lenient.recognize(await noisePng());
      expect(noise.lines.length).toBeGreaterThan(0);
      const mean = (r: OcrResult) => r.lines.reduce((s, l) => s + l.confidence, 0) / r.lines.length;
      expect(mean(noise)).toBeLessThan(0.6);
      expect(mean(noise)).toBeLessThan(Math.min(...pageResult.lines.map((l) => l.confidence)));
      expect(noise.rotationConfidence).toBeLessThan(pageResult.rotationConfidence);
    } finally {
      await lenient.release();
    }
  });

  it('turns a page lying on its side upright: rotation −90 for a page turned 90° clockwise, same text', async () => {
    const turned = await sharp(page).rotate(90).png().toBuffer();
    const result = await engine.recognize(turned);
    expect(result).toMatchObject({ rotation: -90, width: 1650, height: 1275 });
    expect(result.rotationConfidence).toBeGreaterThan(0.2);
    expect(
      cer(
        PAGE_LINES,
        result.lines.map((l) => l.text),
      ),
    ).toBeLessThanOrEqual(0.02);
    // boxes are in the turned input's pixels: the heading sits at its right edge, tall and thin
    const heading = result.lines[0].box;
    expect(heading.height).toBeGreaterThan(heading.width);
    expect(heading.x + heading.width).toBeLessThanOrEqual(result.width);
    expect(heading.x).toBeGreaterThan(result.width * 0.8);
  });

  it('straightens a page scanned 1° crooked: skew −1, same text, boxes on the crooked input', async () => {
    const crooked = await sharp(page).rotate(1, { background: '#ffffff' }).png().toBuffer();
    const { width, height } = await sharp(crooked).metadata();
    const result = await engine.recognize(crooked);
    expect(result.skew).toBeCloseTo(-1, 0.5);
    expect(result.rotation).toBe(0);
    expect(
      cer(
        PAGE_LINES,
        result.lines.map((l) => l.text),
      ),
    ).toBeLessThanOrEqual(0.02);
    // the heading's centre, turned 1° clockwise about the page's centre as the scan turned it
    const h = pageResult.lines[0].box;
    const [cx, cy] = [h.x + h.width / 2 - pageResult.width / 2, h.y + h.height / 2 - pageResult.height / 2];
    const a = Math.PI / 180;
    const got = result.lines[0].box;
    expect(Math.abs(got.x + got.width / 2 - (cx * Math.cos(a) - cy * Math.sin(a) + width! / 2))).toBeLessThan(6);
    expect(Math.abs(got.y + got.height / 2 - (cx * Math.sin(a) + cy * Math.cos(a) + height! / 2))).toBeLessThan(6);
  });

  it('reads a full letter page of 11 pt prose within 2 % character errors', async () => {
    const { pdf, lines } = await fullLetterPagePdf();
    const letter = await renderFirstPage(pdf, 'letter');
    const times: number[] = [];
    let result: OcrResult | undefined;
    for (let run = 0; run < 2; run++) {
      const started = performance.now();
      result = await engine.recognize(letter);
      times.push(performance.now() - started);
    }
    const errors = cer(
      lines,
      result!.lines.map((l) => l.text),
    );
    console.log(
      `ocr engine: full letter page at ${DPI} dpi, ${lines.length} lines: ${times.map((t) => t.toFixed(0)).join(' / ')} ms, ` +
        `CER ${(errors * 100).toFixed(2)} %, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`,
    );
    expect(result!.rotation).toBe(0);
    expect(errors).toBeLessThanOrEqual(0.02);
  });
});

describe('RecognitionBatcher (real recognition model)', () => {
  it('lets pages read at once share recognition runs, each page getting its own lines back unchanged', async () => {
    const [rec, dict] = await Promise.all(['text-recognition', 'text-dictionary'].map((id) => loadModelFile(id)));
    const { session } = await createSession(rec!);
    const charset = ctcCharset(dict!.bytes.toString('utf8'));
    const img = await decodeImage(page);
    const crops = await Promise.all(pageResult.lines.map((l) => cropLine(img, l.box)));
    const [a, b] = [crops.slice(0, 3), crops.slice(3)];
    const alone = await runCrops(session, crops, charset, 1);
    let runs = 0;
    const run = session.run.bind(session);
    session.run = ((...args: Parameters<typeof run>) => (runs++, run(...args))) as typeof session.run;
    const batcher = new RecognitionBatcher(session, charset, 8);
    const [readA, readB] = await Promise.all([batcher.read(a), batcher.read(b)]);
    expect(runs).toBe(Math.ceil(crops.length / 8));
    // Trimmed as the engine trims a line: a batch is padded to its widest crop, a crop run alone
    // only to a CTC step, and the padding may add or drop a space at a crop's edge.
    expect([...readA, ...readB].map((r) => r.text.trim())).toEqual(alone.map((r) => r.text.trim()));
    await session.release();
  });
});

describe('TextRecognizer.load', () => {
  it('reads with the CPU recogniser on CPU alone (a GPU runs the source model), which reads a page as the source model does', async () => {
    expect(engine.recognitionModel).toBe(engine.executionProviders.every((p) => p === 'cpu') ? CPU_RECOGNITION_MODEL : 'text-recognition');
    const [source, cpu, dict] = await Promise.all(['text-recognition', CPU_RECOGNITION_MODEL, 'text-dictionary'].map((id) => loadModelFile(id)));
    const charset = ctcCharset(dict!.bytes.toString('utf8'));
    const img = await decodeImage(page);
    const crops = await Promise.all(pageResult.lines.map((l) => cropLine(img, l.box)));
    const texts: string[][] = [];
    for (const model of [source!, cpu!]) {
      const { session } = await createSession(model, { executionProviders: ['cpu'] });
      texts.push((await runCrops(session, crops, charset, 1)).map((r) => r.text));
      await session.release();
    }
    // int8 convolutions: a character may differ now and then, never a line's worth
    expect(cer(texts[0]!, texts[1]!)).toBeLessThanOrEqual(0.01);
    expect(cer(PAGE_LINES, texts[1]!)).toBeLessThanOrEqual(cer(PAGE_LINES, texts[0]!) + 0.005);
  });

  it('reads a Latin page with the recogniser cut to the Latin classes, which reads each line as the whole one does without East Asian classes', async () => {
    if (engine.recognitionModel !== CPU_RECOGNITION_MODEL) return; // a GPU reads every page with the source model
    expect(engine.latinRecognitionModel).toBe(LATIN_RECOGNITION_MODEL);
    const [whole, latin, dict, latinDict] = await Promise.all(
      [CPU_RECOGNITION_MODEL, LATIN_RECOGNITION_MODEL, 'text-dictionary', 'text-dictionary-latin'].map((id) => loadModelFile(id)),
    );
    const charset = ctcCharset(dict!.bytes.toString('utf8'));
    const latinCharset = ctcCharset(latinDict!.bytes.toString('utf8'));
    expect(latinCharset.filter((c) => hasEastAsianForms(c))).toEqual([]);
    expect(latinCharset).toEqual(charset.filter((_, k) => latinClasses(charset)[k]));
    const img = await decodeImage(page);
    const crops = await Promise.all(pageResult.lines.map((l) => cropLine(img, l.box)));
    const reads: Awaited<ReturnType<typeof runCrops>>[] = [];
    for (const [model, chars, allowed] of [
      [whole!, charset, latinClasses(charset)],
      [latin!, latinCharset, undefined],
    ] as const) {
      const { session } = await createSession(model, { executionProviders: ['cpu'] });
      reads.push(await runCrops(session, allowed ? crops.map((c) => ({ ...c, allowed })) : crops, chars, 1));
      await session.release();
    }
    expect(reads[1]!.map((r) => r.text)).toEqual(reads[0]!.map((r) => r.text));
    expect(reads[1]!.map((r) => r.text).join('').length).toBeGreaterThan(200);
    // the softmax spreads over the kept classes alone: never less sure than the whole model
    reads[1]!.forEach((r, i) => expect(r.confidence).toBeGreaterThanOrEqual(reads[0]![i]!.confidence - 1e-4));
  });

  it('refuses a model whose sha256 differs from the manifest entry', async () => {
    const manifest = JSON.parse(await readFile(DEFAULT_MANIFEST_PATH, 'utf8'));
    type Entry = { id: string; path: string; package?: string; sha256: string };
    // the copy lives elsewhere: the files kept beside the manifest are named by absolute path
    for (const e of manifest.models as Entry[]) if (!e.package) e.path = join(dirname(DEFAULT_MANIFEST_PATH), e.path);
    const entry = (manifest.models as Entry[]).find((m) => m.id === engine.recognitionModel)!;
    entry.sha256 = entry.sha256.replace(/^./, (c: string) => (c === '0' ? '1' : '0'));
    const tampered = join(dir, 'manifest.json');
    await writeFile(tampered, JSON.stringify(manifest));
    await expect(TextRecognizer.load({ manifestPath: tampered })).rejects.toMatchObject({
      name: 'EngineError',
      kind: 'model_mismatch',
      message: expect.stringMatching(new RegExp(`'${engine.recognitionModel}'.*sha256 .* expects`)),
    });
  });
});
