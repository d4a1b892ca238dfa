import ort from 'onnxruntime-node';
import { EngineError } from '../engine/errors.js';
import type { InkMask } from '../engine/math/image/binarise.js';
import type { GrayImage } from '../engine/math/types.js';
import { createSession, loadModelFile } from '../engine/models.js';
import type { Band } from './bands.js';

/**
 * Handwritten or printed: a small CNN (models/training/ink-kind-train.py) looks at windows of the
 * image's ink rows (bands.ts), each scaled to WINDOW_HEIGHT pixels high, and gives each window the
 * probability that it is handwriting. The image's answer is the mean over its windows, weighted by
 * their ink. The training data go through `inkWindows` too (models/training/ink-kind-generate.ts).
 */

export const INK_KIND_MODEL_ID = 'ink-kind';
export const WINDOW_HEIGHT = 48;
export const WINDOW_WIDTH = 192;
/** Bands read, largest first, and windows taken from each: bounds the work on a full page. */
const MAX_BANDS = 8;
const MAX_WINDOWS_PER_BAND = 3;
/** Rows of ink shorter than this are specks or rules, with no shape to judge. */
const MIN_BAND_PX = 6;
/** White kept around a band, as a share of its height. */
const MARGIN = 0.12;

export interface InkWindows {
  /** WINDOW_HEIGHT × WINDOW_WIDTH ink values (0 paper … 1 ink) per window, one after another. */
  pixels: Float32Array;
  /** Ink in each window: its weight in the image's answer. */
  weights: number[];
}

/**
 * The integral image `sums` (w + 1 wide) at the fractional point (x, y), clipped to (w, h):
 * bilinear between its four corners. A plain function, no closures: it runs a few hundred
 * thousand times a page.
 */
function integralAt(sums: Float64Array, w: number, h: number, xRaw: number, yRaw: number): number {
  const x = Math.min(xRaw, w);
  const y = Math.min(yRaw, h);
  const xi = Math.floor(x);
  const yi = Math.floor(y);
  const fx = x - xi;
  const fy = y - yi;
  const xj = Math.min(xi + 1, w);
  const at = yi * (w + 1);
  const top = sums[at + xi]! * (1 - fx) + sums[at + xj]! * fx;
  const below = fy ? sums[at + w + 1 + xi]! * (1 - fx) + sums[at + w + 1 + xj]! * fx : 0;
  return top * (1 - fy) + below * fy;
}

/** Sum of the band's ink over the rectangle [x0, x1) × [y0, y1) with fractional edges, from its integral image (w + 1 wide). */
function areaSum(sums: Float64Array, w: number, h: number, x0: number, y0: number, x1: number, y1: number): number {
  return integralAt(sums, w, h, x1, y1) - integralAt(sums, w, h, x0, y1) - integralAt(sums, w, h, x1, y0) + integralAt(sums, w, h, x0, y0);
}

/**
 * The band's windows (with its margin): its ink values scaled to WINDOW_HEIGHT rows by area
 * averaging, so thin pen lines keep their weight, and up to MAX_WINDOWS_PER_BAND windows evenly
 * spread over the scaled band; a band narrower than a window sits at its left, the rest paper.
 * Only the pixels the windows take are computed.
 */
function bandWindows(gray: GrayImage, mask: InkMask, band: Band): Float32Array[] {
  const margin = Math.round(MARGIN * (band.y1 - band.y0));
  const x0 = Math.max(0, band.x0 - margin);
  const x1 = Math.min(gray.width, band.x1 + margin);
  const y0 = Math.max(0, band.y0 - margin);
  const y1 = Math.min(gray.height, band.y1 + margin);
  const w = x1 - x0;
  const h = y1 - y0;
  // Paper and ink levels of this band, so pale pencil and dark toner both come out 0…1.
  let inkSum = 0;
  let inkCount = 0;
  let paperSum = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const i = y * gray.width + x;
      if (mask.data[i]) ((inkSum += gray.data[i]!), inkCount++);
      else paperSum += gray.data[i]!;
    }
  const paper = paperSum / Math.max(1, w * h - inkCount);
  const ink = inkSum / Math.max(1, inkCount);
  const range = Math.max(1, paper - ink);
  const sums = new Float64Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += Math.min(1, Math.max(0, (paper - gray.data[(y + y0) * gray.width + x + x0]!) / range));
      sums[(y + 1) * (w + 1) + x + 1] = sums[y * (w + 1) + x + 1]! + row;
    }
  }
  const k = h / WINDOW_HEIGHT;
  const width = Math.max(1, Math.round(w / k));
  const count = Math.min(MAX_WINDOWS_PER_BAND, Math.ceil(width / WINDOW_WIDTH));
  const windows: Float32Array[] = [];
  for (let n = 0; n < count; n++) {
    const left = count > 1 ? Math.round((n * (width - WINDOW_WIDTH)) / (count - 1)) : 0;
    const window = new Float32Array(WINDOW_HEIGHT * WINDOW_WIDTH);
    for (let y = 0; y < WINDOW_HEIGHT; y++)
      for (let x = 0; x < WINDOW_WIDTH && left + x < width; x++) {
        const sx0 = Math.min(w, (left + x) * k);
        const sx1 = Math.min(w, (left + x + 1) * k);
        window[y * WINDOW_WIDTH + x] = areaSum(sums, w, h, sx0, y * k, sx1, (y + 1) * k) / (k * k);
      }
    windows.push(window);
  }
  return windows;
}

/** Windows of the image's ink rows, as the classifier takes them. */
export function inkWindows(gray: GrayImage, mask: InkMask, bands: readonly Band[]): InkWindows {
  const chosen = bands
    .filter((b) => b.y1 - b.y0 >= MIN_BAND_PX)
    .sort((a, b) => (b.y1 - b.y0) * (b.x1 - b.x0) - (a.y1 - a.y0) * (a.x1 - a.x0))
    .slice(0, MAX_BANDS);
  const size = WINDOW_HEIGHT * WINDOW_WIDTH;
  const windows: Float32Array[] = [];
  const weights: number[] = [];
  for (const window of chosen.flatMap((band) => bandWindows(gray, mask, band))) {
    let ink = 0;
    for (const v of window) ink += v;
    if (ink <= 0) continue;
    windows.push(window);
    weights.push(ink);
  }
  const pixels = new Float32Array(windows.length * size);
  windows.forEach((w, i) => pixels.set(w, i * size));
  return { pixels, weights };
}

/** The ink-kind CNN, run by onnxruntime on the CPU. */
export class InkKindClassifier {
  private constructor(private readonly session: ort.InferenceSession) {}

  static async load(opts: { manifestPath?: string } = {}): Promise<InkKindClassifier> {
    const model = await loadModelFile(INK_KIND_MODEL_ID, { manifestPath: opts.manifestPath });
    const { session } = await createSession(model, { executionProviders: ['cpu'], intraOpThreads: 1 });
    return new InkKindClassifier(session);
  }

  /** Probability that each window is handwriting. */
  async classify(windows: InkWindows): Promise<number[]> {
    const n = windows.weights.length;
    if (!n) return [];
    const output = await this.session.run({ windows: new ort.Tensor('float32', windows.pixels, [n, 1, WINDOW_HEIGHT, WINDOW_WIDTH]) });
    const p = output.handwritten;
    if (!p || p.dims[0] !== n) throw new EngineError('model_mismatch', 'the ink-kind model does not answer one probability per window');
    return Array.from(p.data as Float32Array);
  }

  /** Probability that the image's ink is handwriting (ink-weighted mean over its windows); undefined without ink. */
  async handwriting(gray: GrayImage, mask: InkMask, bands: readonly Band[]): Promise<number | undefined> {
    const windows = inkWindows(gray, mask, bands);
    const p = await this.classify(windows);
    if (!p.length) return undefined;
    const total = windows.weights.reduce((s, w) => s + w, 0);
    return p.reduce((s, v, i) => s + v * windows.weights[i], 0) / total;
  }
}
