/**
 * Training windows for the handwritten-or-printed classifier (worker/inference/ink-kind.ts):
 * - handwritten: real pen strokes (strokes-real.ts: UNIPEN writers and Detexify drawings) composed
 *   into expressions and lines of words (models/eval/strokes-real-set.ts) and drawn as ink with a
 *   random pen width;
 * - printed: the same expressions typeset by MathJax, and the same words set in system fonts.
 * Both get the same paper and ink tones, blur and scanner noise, and go through the inference
 * code (binarise → inkBands → inkWindows). The test set holds out writers (fold 0), expressions
 * (another seed), a MathJax font (termes) and two text fonts (FreeSerif, C059).
 *
 *   npx tsx models/training/ink-kind-generate.ts [out-prefix]
 * @default out-prefix models/training/data/ink-kind (and <prefix>-test)
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { binarise } from '../../worker/engine/math/image/binarise.js';
import type { GrayImage, Stroke } from '../../worker/engine/math/types.js';
import { inkBands } from '../../worker/inference/bands.js';
import { inkWindows, WINDOW_HEIGHT, WINDOW_WIDTH } from '../../worker/inference/ink-kind.js';
import { composedExpressions, composedWordLines, writerPool } from '../eval/strokes-real-set.js';
import { cropImage, inkBox } from '../eval/pgm.js';
import { addNoise, blur, seededRandom, type Random } from './augment.js';
import { grayFromRgba } from './dataset.js';
import { renderTexSvg, type MathJaxFontName } from './render-mathjax.js';
import { HELD_OUT_FOLD, readRealSamples, type RealSample } from './strokes-real.js';
import { strokesSvg } from './ink-render.js';

const COUNTS = { train: Number(process.env.INK_KIND_IMAGES ?? 900), test: Number(process.env.INK_KIND_TEST_IMAGES ?? 200) };
/** Pixels per em: a 10 pt line scanned at 100 to 300 dpi; windows are 48 px high, so larger renders only cost time. */
const EM_PX = [12, 40] as const;
const SEED = 48_2026;
const TEXT_FONTS = {
  train: [
    'DejaVuSans.ttf',
    'DejaVuSerif.ttf',
    'DejaVuSans-Oblique.ttf',
    'NimbusRoman-Regular.otf',
    'NimbusSans-Regular.otf',
    'P052-Roman.otf',
    'URWBookman-Light.otf',
    'NimbusMonoPS-Regular.otf',
    'Z003-MediumItalic.otf',
    'FreeSans.ttf',
    'NimbusRoman-Italic.otf',
  ],
  test: ['FreeSerif.ttf', 'C059-Roman.otf', 'FreeSerifItalic.ttf'],
};
const MATH_FONTS: Record<'train' | 'test', MathJaxFontName[]> = { train: ['newcm', 'stix2', 'tex', 'modern'], test: ['termes'] };

const out = process.argv[2] ?? 'models/training/data/ink-kind';
const started = Date.now();

async function fontFiles(): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (e.isDirectory()) await walk(join(dir, e.name));
      else if (/\.(ttf|otf)$/.test(e.name)) found.set(e.name, join(dir, e.name));
    }
  };
  await walk('/usr/share/fonts');
  return found;
}

/** Words of this repository's own documentation: the same vocabulary for pen and type. */
async function vocabulary(): Promise<string[]> {
  const text = (await Promise.all((await readdir('docs')).filter((f) => f.endsWith('.md')).map((f) => readFile(join('docs', f), 'utf8')))).join(' ');
  return [...new Set(text.match(/\b[a-zA-Z]{2,9}\b|\b\d{1,4}\b/g) ?? [])];
}

const logUniform = (random: Random, lo: number, hi: number) => lo * Math.exp(random() * Math.log(hi / lo));

function rasterise(svg: string, fontFile?: string, family?: string): GrayImage {
  const font = fontFile ? { fontFiles: [fontFile], loadSystemFonts: false, defaultFontFamily: family } : { loadSystemFonts: false };
  const r = new Resvg(svg, { background: 'white', font }).render();
  return grayFromRgba(r.pixels, r.width, r.height);
}

/** Ink and paper tones, a margin, blur and noise: a photo or a scan of the page, the same for pen and type. */
function onPaper(image: GrayImage, emPx: number, random: Random): GrayImage | undefined {
  const box = inkBox(image);
  if (!box) return undefined;
  const m = Math.round(emPx * (0.1 + random() * 0.6));
  const crop = cropImage(image, {
    x0: Math.max(0, box.x0 - m),
    y0: Math.max(0, box.y0 - m),
    x1: Math.min(image.width, box.x1 + m),
    y1: Math.min(image.height, box.y1 + m),
  });
  const ink = random() * 110;
  const paper = 190 + random() * 65;
  let out: GrayImage = { ...crop, data: Uint8Array.from(crop.data, (v) => ink + (v / 255) * (paper - ink)) };
  if (random() < 0.6) out = blur(out, 0.3 + random() * 1.0);
  if (random() < 0.6) out = addNoise(out, random() * 16, random() < 0.3 ? 0.001 : 0, random);
  return out;
}

class WindowWriter {
  private readonly windows: Uint8Array[] = [];
  readonly labels: number[] = [];
  readonly images: number[] = [];
  readonly weights: number[] = [];
  readonly sources: string[] = [];
  private imageCount = 0;

  add(image: GrayImage, handwritten: boolean, source: string): void {
    const mask = binarise(image);
    const w = inkWindows(image, mask, inkBands(mask));
    if (!w.weights.length) return;
    const size = WINDOW_HEIGHT * WINDOW_WIDTH;
    w.weights.forEach((weight, i) => {
      this.windows.push(Uint8Array.from(w.pixels.subarray(i * size, (i + 1) * size), (v) => Math.round(v * 255)));
      this.labels.push(handwritten ? 1 : 0);
      this.images.push(this.imageCount);
      this.weights.push(Math.round(weight));
      this.sources.push(source);
    });
    this.imageCount++;
  }

  async write(prefix: string): Promise<void> {
    await writeFile(`${prefix}.bin`, Buffer.concat(this.windows));
    const meta = { count: this.labels.length, images: this.imageCount, height: WINDOW_HEIGHT, width: WINDOW_WIDTH };
    await writeFile(`${prefix}.json`, JSON.stringify({ ...meta, labels: this.labels, imageOf: this.images, weights: this.weights, sources: this.sources }));
  }
}

async function generate(split: 'train' | 'test', fonts: Map<string, string>, words: string[], samples: RealSample[]): Promise<WindowWriter> {
  const random = seededRandom(SEED + (split === 'test' ? 1 : 0));
  const pool = await writerPool(split === 'test' ? (f) => f === HELD_OUT_FOLD : (f) => f !== HELD_OUT_FOLD, samples);
  const count = COUNTS[split];
  const expressions = await composedExpressions(Math.round(count * 0.6), SEED + (split === 'test' ? 7 : 3), pool);
  const lines = composedWordLines(count - expressions.length, words, SEED + (split === 'test' ? 11 : 5), pool);
  const writer = new WindowWriter();
  const pen = (strokes: Stroke[], source: string) => {
    const emPx = logUniform(random, ...EM_PX);
    const image = rasterise(strokesSvg(strokes, emPx / 100, Math.max(0.8, emPx * (0.025 + random() * 0.08))));
    const paper = onPaper(image, emPx, random);
    if (paper) writer.add(paper, true, source);
  };
  for (const e of expressions) pen(e.strokes, 'pen-expression');
  for (const l of lines) pen(l.strokes, 'pen-words');
  const mathFonts = MATH_FONTS[split];
  for (const e of expressions) {
    const emPx = logUniform(random, ...EM_PX);
    const tex = random() < 0.5 ? `\\displaystyle ${e.latex}` : e.latex;
    const svg = await renderTexSvg(tex, mathFonts[Math.floor(random() * mathFonts.length)], { emPx, rotateDeg: (random() - 0.5) * 2 });
    const paper = onPaper(rasterise(svg), emPx, random);
    if (paper) writer.add(paper, false, 'type-expression');
  }
  const textFonts = TEXT_FONTS[split].filter((f) => fonts.has(f));
  if (!textFonts.length)
    throw new Error(`none of the fonts ${TEXT_FONTS[split].join(', ')} is installed (fonts-dejavu-core, fonts-freefont-ttf, fonts-urw-base35)`);
  for (const l of lines) {
    const emPx = logUniform(random, ...EM_PX);
    const file = textFonts[Math.floor(random() * textFonts.length)];
    const family = await fontFamily(fonts.get(file)!);
    const width = Math.round(l.latex.length * emPx * 0.75 + 2 * emPx);
    const text = l.latex.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${Math.round(emPx * 2)}"><text x="${emPx / 2}" y="${emPx * 1.3}" font-size="${emPx}" fill="black">${text}</text></svg>`;
    const paper = onPaper(rasterise(svg, fonts.get(file), family), emPx, random);
    if (paper) writer.add(paper, false, 'type-words');
  }
  return writer;
}

/** The family name resvg matches a font by: asked of fontconfig once per file. */
const families = new Map<string, string>();
async function fontFamily(file: string): Promise<string> {
  if (!families.has(file)) {
    const name = await new Promise<string>((resolve, reject) =>
      execFile('fc-scan', ['--format', '%{family[0]}', file], (err, stdout) => (err ? reject(err) : resolve(stdout.trim()))),
    );
    families.set(file, name);
  }
  return families.get(file)!;
}

const fonts = await fontFiles();
const words = await vocabulary();
const samples = await readRealSamples();
await mkdir(dirname(out), { recursive: true });
for (const split of ['train', 'test'] as const) {
  const w = await generate(split, fonts, words, samples);
  await w.write(split === 'train' ? out : `${out}-test`);
  const pen = w.labels.filter((l) => l === 1).length;
  console.log(`${split}: ${w.labels.length} windows (${pen} handwritten) in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
