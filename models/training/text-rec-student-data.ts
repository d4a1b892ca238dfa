/**
 * Training data for the small Latin recogniser (text_rec_student.py): text from Debian's TeX Live
 * documentation PDFs (their text layer gives each word's box and text), pages rendered at
 * 150–300 dpi, a third of them with the bench's scanner noise and a slight skew
 * (bench/scanned-renders.ts). Runs of words are cut as the detector's boxes are (a little
 * padding), resized to height 48 as the engine does (recognize.ts cropLine), and read by the
 * current Latin recogniser (the teacher) exactly as the engine feeds it: its top-K classes and
 * probabilities per CTC step are the distillation targets. Held out: amsmath's own documents, the
 * bench's and the calibration pages' documents.
 *
 *   npx tsx models/training/text-rec-student-data.ts OUT_DIR [max crops] [first pdf index]
 *
 * Writes OUT_DIR/crops.bin (grey WebPs 32 high, concatenated), OUT_DIR/topk.bin (per crop, per step of
 * ceil(max(64, width) / 8) steps: K class ids then K probabilities × 255, uint8) and
 * OUT_DIR/index.jsonl (per crop: WebP bytes, its width, the width at height 48, text, the PDF's
 * number). Resumable: appends.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import ort from 'onnxruntime-node';
import sharp from 'sharp';
import { noisySkewed } from '../../bench/scanned-renders.js';
import { REC_HEIGHT } from '../../worker/engine/text/recognize.js';
import { seededRandom } from './augment.js';

const run = promisify(execFile);
const DOCS = '/usr/share/doc/texlive-doc';
const MODELS = resolve(import.meta.dirname, '..');
/** amsmath's own documents, the bench's pages and the calibration pages' documents. */
const HELD_OUT = /testmath|amsldoc|subeqn|\/amsmath\/|btxdoc|scrguide|koma-script|txfontsdoc|\/euro\/|booktabs|caption/;
const K = 4;
const MAX_WIDTH = 800;
/** Crops are stored this high (WebP) and enlarged to 48 by the trainer, as the engine enlarges a 200 dpi line. */
const STORED_HEIGHT = 32;
const WEBP_QUALITY = 35;

const [outArg, maxArg, firstArg] = process.argv.slice(2);
if (!outArg) throw new Error('usage: text-rec-student-data.ts OUT_DIR [max crops] [first pdf index]');
const out = resolve(outArg);
const maxCrops = Number(maxArg ?? 20000);
mkdirSync(out, { recursive: true });

const dictionary = readFileSync(join(MODELS, 'text-recognition-cpu-latin.txt'), 'utf8')
  .split('\n')
  .filter((c) => c.length > 0);
const known = new Set([...dictionary, ' ']);
const LIGATURES: Record<string, string> = { ﬀ: 'ff', ﬁ: 'fi', ﬂ: 'fl', ﬃ: 'ffi', ﬄ: 'ffl', ﬅ: 'st', ﬆ: 'st' };

interface Word {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  text: string;
}

/** Lines of words (PDF points) from `pdftotext -bbox-layout`. */
function parseLines(xhtml: string): Word[][] {
  const lines: Word[][] = [];
  for (const line of xhtml.split('<line ').slice(1)) {
    const words: Word[] = [];
    for (const m of line.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)) {
      const text = [...unescape(m[5]!)].map((c) => LIGATURES[c] ?? c).join('');
      words.push({ x0: Number(m[1]), y0: Number(m[2]), x1: Number(m[3]), y1: Number(m[4]), text });
    }
    if (words.length > 0) lines.push(words);
  }
  return lines;
}

function unescape(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

const teacher = await ort.InferenceSession.create(join(MODELS, 'text-recognition-cpu-latin.onnx'), { intraOpNumThreads: 1, logSeverityLevel: 3 });

/** The teacher's top-K per step on a grey crop, fed as recognize.ts feeds a crop run alone. */
async function teacherTopK(grey: Buffer, width: number): Promise<Buffer> {
  const padded = Math.ceil(Math.max(64, width) / 8) * 8;
  const plane = REC_HEIGHT * padded;
  const data = new Float32Array(3 * plane);
  for (let y = 0; y < REC_HEIGHT; y++) {
    for (let x = 0; x < width; x++) {
      const v = grey[y * width + x]! / 127.5 - 1;
      data[y * padded + x] = v;
      data[plane + y * padded + x] = v;
      data[2 * plane + y * padded + x] = v;
    }
  }
  const input = new ort.Tensor('float32', data, [1, 3, REC_HEIGHT, padded]);
  const output = (await teacher.run({ [teacher.inputNames[0]!]: input }))[teacher.outputNames[0]!]!;
  const [, steps, classes] = output.dims as number[];
  const probs = output.data as Float32Array;
  const result = Buffer.alloc(steps! * 2 * K);
  for (let t = 0; t < steps!; t++) {
    const row = probs.subarray(t * classes!, (t + 1) * classes!);
    const ids = [...row.keys()].sort((a, b) => row[b]! - row[a]!).slice(0, K);
    ids.forEach((id, k) => {
      result[t * 2 * K + k] = id;
      result[t * 2 * K + K + k] = Math.round(row[id]! * 255);
    });
  }
  return result;
}

/** Runs of whole words, each at most MAX_WIDTH wide at height 48, covering the line. */
function segments(line: Word[], rnd: () => number): Word[][] {
  const out: Word[][] = [];
  let start = 0;
  while (start < line.length) {
    const h = Math.max(...line.map((w) => w.y1 - w.y0));
    const want = 1 + Math.floor(rnd() * 10);
    let end = start + 1;
    while (end < line.length && end - start < want && ((line[end]!.x1 - line[start]!.x0) / h) * REC_HEIGHT < MAX_WIDTH * 0.85) end++;
    out.push(line.slice(start, end));
    start = end;
  }
  return out;
}

const pdfs = (await run('find', [DOCS, '-name', '*.pdf'], { maxBuffer: 64 << 20 })).stdout
  .split('\n')
  .filter((p) => p && !HELD_OUT.test(p))
  .sort();
const order = pdfs.map((_, i) => i);
const shuffle = seededRandom(18);
for (let i = order.length - 1; i > 0; i--) {
  const j = Math.floor(shuffle() * (i + 1));
  [order[i], order[j]] = [order[j]!, order[i]!];
}

const indexFile = join(out, 'index.jsonl');
let count = existsSync(indexFile) ? readFileSync(indexFile, 'utf8').split('\n').filter(Boolean).length : 0;
const tmp = mkdtempSync(join(tmpdir(), 'folio-student-'));
try {
  for (let n = Number(firstArg ?? 0); n < order.length && count < maxCrops; n++) {
    const pdf = pdfs[order[n]!]!;
    const rnd = seededRandom(1000 + n);
    let pages = 0;
    try {
      pages = Number(/Pages:\s+(\d+)/.exec((await run('pdfinfo', [pdf])).stdout)?.[1] ?? 0);
    } catch {
      continue;
    }
    if (pages === 0) continue;
    for (let pick = 0; pick < 2 && count < maxCrops; pick++) {
      const page = 1 + Math.floor(rnd() * pages);
      const dpi = [150, 175, 200, 200, 250, 300][Math.floor(rnd() * 6)]!;
      const noisy = rnd() < 0.3;
      const skew = noisy ? (rnd() - 0.5) * 1.2 : 0;
      let lines: Word[][];
      let image: Buffer;
      try {
        const bbox = await run('pdftotext', ['-f', String(page), '-l', String(page), '-bbox-layout', '-enc', 'UTF-8', pdf, '-'], { maxBuffer: 64 << 20 });
        lines = parseLines(bbox.stdout);
        if (lines.length === 0) continue;
        const base = join(tmp, 'page');
        await run('pdftoppm', ['-r', String(dpi), '-f', String(page), '-l', String(page), '-gray', '-png', '-singlefile', pdf, base], { timeout: 60000 });
        image = readFileSync(`${base}.png`);
      } catch {
        continue;
      }
      const clean = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
      const page0 = { width: clean.info.width, height: clean.info.height };
      const scanned = noisy ? await noisySkewed(image, skew, 7000 + n * 2 + pick) : image;
      const { data, info } = await sharp(scanned).greyscale().raw().toBuffer({ resolveWithObject: true });
      // sharp turns clockwise by `skew` degrees about the centre, growing the canvas.
      const rad = (skew * Math.PI) / 180;
      const map = (x: number, y: number) => {
        const dx = x - page0.width / 2;
        const dy = y - page0.height / 2;
        return [info.width / 2 + dx * Math.cos(rad) - dy * Math.sin(rad), info.height / 2 + dx * Math.sin(rad) + dy * Math.cos(rad)] as const;
      };
      const scale = dpi / 72;
      for (const line of lines) {
        for (const words of segments(line, rnd)) {
          const text = words.map((w) => w.text).join(' ');
          if (text.length < 1 || [...text].some((c) => !known.has(c))) continue;
          const x0 = words[0]!.x0 * scale;
          const x1 = words[words.length - 1]!.x1 * scale;
          const y0 = Math.min(...words.map((w) => w.y0)) * scale;
          const y1 = Math.max(...words.map((w) => w.y1)) * scale;
          const h = y1 - y0;
          if (h < 8 || x1 - x0 < 4) continue;
          const [cx, cy] = map((x0 + x1) / 2, (y0 + y1) / 2);
          const padX = h * (0.05 + rnd() * 0.3);
          const padTop = h * (rnd() * 0.25 - 0.05);
          const padBottom = h * (rnd() * 0.25 - 0.05);
          const left = Math.max(0, Math.floor(cx - (x1 - x0) / 2 - padX));
          const top = Math.max(0, Math.floor(cy - h / 2 - padTop));
          const w = Math.min(info.width, Math.ceil(cx + (x1 - x0) / 2 + padX)) - left;
          const hh = Math.min(info.height, Math.ceil(cy + h / 2 + padBottom)) - top;
          if (w < 4 || hh < 6) continue;
          const width = Math.max(1, Math.ceil((REC_HEIGHT * w) / hh));
          if (width > MAX_WIDTH) continue;
          const stored = Math.max(1, Math.ceil((STORED_HEIGHT * w) / hh));
          const webp = await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
            .extract({ left, top, width: w, height: hh })
            .resize(stored, STORED_HEIGHT, { fit: 'fill' })
            .webp({ quality: WEBP_QUALITY })
            .toBuffer();
          // The teacher reads what the student will: the stored crop enlarged to height 48.
          const grey = await sharp(webp).greyscale().resize(width, REC_HEIGHT, { fit: 'fill' }).raw().toBuffer();
          const topk = await teacherTopK(grey, width);
          appendFileSync(join(out, 'crops.bin'), webp);
          appendFileSync(join(out, 'topk.bin'), topk);
          appendFileSync(indexFile, JSON.stringify({ bytes: webp.length, stored, width, text, noisy, dpi, doc: n }) + '\n');
          count++;
        }
      }
    }
    if (n % 10 === 0) console.log(`pdf ${n}: ${count} crops`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
  await teacher.release();
}
console.log(`${count} crops in ${out}`);
