import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ort from 'onnxruntime-node';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../../worker/engine/text/image.js';
import { TextRecognizer } from '../../worker/engine/text/index.js';
import { SPLIT_ABOVE } from '../../worker/engine/text/split-crop.js';
import { HEADING_TEXT, PARAGRAPH_ONE, PARAGRAPH_TWO, headingAndParagraphsPdf } from '../support/pdf-fixtures.js';

/**
 * How the CPU engine saves work on scanned pages, on real models and a page rendered by poppler's
 * pdftoppm at 200 dpi in grey, as a scanner delivers it: a grey page is read in one channel, and
 * long lines are read in pieces cut at word gaps (split-crop.ts).
 */

const execFileAsync = promisify(execFile);
const PAGE_LINES = [HEADING_TEXT, ...PARAGRAPH_ONE, ...PARAGRAPH_TWO];

let dir: string;
let engine: TextRecognizer;
let greyPage: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-ocr-cpu-'));
  engine = await TextRecognizer.load({ intraOpThreads: 1, executionProviders: ['cpu'] });
  await writeFile(join(dir, 'page.pdf'), await headingAndParagraphsPdf());
  await execFileAsync('pdftoppm', ['-r', '200', '-gray', '-png', '-singlefile', join(dir, 'page.pdf'), join(dir, 'page')]);
  greyPage = await readFile(join(dir, 'page.png'));
});

afterAll(async () => {
  await engine?.release();
  await rm(dir, { recursive: true, force: true });
});

describe('TextRecognizer on a grey scan, CPU alone', () => {
  it('reads a grey page exactly as the same page in colour (one margin pixel tinted), boxes and confidences included', async () => {
    expect((await decodeImage(greyPage)).channels).toBe(1);
    const { data, info } = await sharp(greyPage).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    data[0] = 250; // top-left corner, far from any text: the page now has colour and is read in RGB
    const colourPage = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
      .png()
      .toBuffer();
    const [grey, colour] = [await engine.recognize(greyPage), await engine.recognize(colourPage)];
    expect(grey.lines.map((l) => l.text)).toHaveLength(PAGE_LINES.length);
    expect(grey).toEqual(colour);
  });

  it("reads a page's long lines in pieces, each line's words in order and inside its box", async () => {
    const widths: number[] = [];
    const sessions = (ort.InferenceSession as unknown as { prototype: ort.InferenceSession }).prototype;
    const run = sessions.run;
    sessions.run = function (this: ort.InferenceSession, feeds: ort.InferenceSession.FeedsType, ...rest: unknown[]) {
      const dims = (Object.values(feeds)[0] as ort.Tensor).dims;
      if (dims[2] === 48) widths.push(dims[3]!);
      return (run as (...a: unknown[]) => ReturnType<typeof run>).call(this, feeds, ...rest);
    } as typeof run;
    let result;
    try {
      result = await engine.recognize(greyPage);
    } finally {
      sessions.run = run;
    }
    expect(widths.length).toBeGreaterThan(PAGE_LINES.length);
    expect(Math.max(...widths)).toBeLessThanOrEqual(2 * SPLIT_ABOVE);
    expect(result.lines.map((l) => l.text.replace(/\s+/g, ' '))).toEqual(PAGE_LINES);
    for (const line of result.lines) {
      expect(line.words.map((w) => w.text).join(' ')).toBe(line.text);
      const xs = line.words.map((w) => w.box.x);
      expect(xs).toEqual([...xs].sort((a, b) => a - b));
      for (const w of line.words) expect(w.box.x + w.box.width).toBeLessThanOrEqual(line.box.x + line.box.width);
    }
  });

  it('reads a section number and its title an em apart as two words, also where one line box holds both', async () => {
    const titles = ['Introduction', 'The heat equation', 'Boundary conditions', 'Measurements', 'Related work', 'Conclusion'];
    const body = titles.map((t) => `\\section{${t}}\nThe temperature of a thin rod changes with time according to a simple law.\n`).join('');
    await writeFile(join(dir, 'sections.tex'), `\\documentclass[11pt]{article}\n\\begin{document}\n${body}\\end{document}\n`);
    await execFileAsync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'sections.tex'], { cwd: dir });
    await execFileAsync('pdftoppm', ['-r', '150', '-gray', '-png', '-singlefile', join(dir, 'sections.pdf'), join(dir, 'sections')]);
    const texts = (await engine.recognize(await readFile(join(dir, 'sections.png')))).lines.map((l) => l.text);
    titles.forEach((title, i) => expect(texts, texts.join('\n')).toContainEqual(expect.stringMatching(new RegExp(`^(${i + 1} )?${title}$`))));
    // The detector put at least one number in its title's box: the space came from the crop's blank columns.
    expect(texts.filter((t) => /^\d /.test(t)).length, texts.join('\n')).toBeGreaterThan(0);
  });
});
