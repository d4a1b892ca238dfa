import ort from 'onnxruntime-node';
import { EngineError } from '../errors.js';
import { ctcGreedyDecode, type DecodedText } from './ctc.js';
import { rawInput, type Box, type RgbImage } from './image.js';
import { wordSpaces } from './word-spaces.js';

/**
 * Text-line recognition with PP-OCRv4's CTC model. Crops are resized to height 48 keeping their
 * aspect, sorted by width and run several at a time, each batch padded on the right to its
 * widest crop (never narrower than the 320 px the model was trained on) as PaddleOCR does. A crop
 * run alone is padded only to a whole CTC step: PaddleOCR's 320 px floor is for batches, and on
 * a page's short lines (headings, a paragraph's last line) it was 8 % of the recogniser's time
 * for no better reading.
 */

export const REC_HEIGHT = 48;
const REC_MIN_WIDTH = 320;
/** The narrowest a crop run alone is padded to, and the columns of one CTC step. */
const REC_MIN_WIDTH_ALONE = 64;
const REC_STEP = 8;
/** About 400 CTC steps; longer lines are squeezed rather than split. */
const REC_MAX_WIDTH = 3200;
/**
 * Crops per session.run. On a 2-core CPU one at a time was fastest (a 47-line page: about 4 s
 * alone, 5–7 s in pairs, 6–8 s in fours, 9–12 s in eights); a GPU is expected to want batches.
 */
export const REC_BATCH_SIZE_CPU = 1;
export const REC_BATCH_SIZE_GPU = 8;

export interface Crop {
  /** REC_HEIGHT rows of `width` pixels, RGB or grey (`channels`). */
  pixels: Buffer;
  channels: 1 | 3;
  /** Width after resizing to REC_HEIGHT. */
  width: number;
  /** The columns of the image it was cut from. */
  left: number;
  sourceWidth: number;
  /** Classes its reading may emit (ctc.ts latinClasses); all when absent. */
  allowed?: Uint8Array;
}

/** A recognised character with the columns of the image its CTC steps cover. */
export interface CharSpan {
  char: string;
  x0: number;
  x1: number;
  p: number;
}

export interface LineRead extends DecodedText {
  /** One per character of `text`. */
  spans: CharSpan[];
}

/**
 * Runs crops through the model `batchSize` at a time, narrowest first so each batch pads little;
 * results are in the order of `crops`.
 */
export async function runCrops(session: ort.InferenceSession, crops: Crop[], charset: string[], batchSize: number): Promise<LineRead[]> {
  const order = crops.map((_, i) => i).sort((a, b) => crops[a]!.width - crops[b]!.width);
  const results: LineRead[] = new Array(crops.length);
  for (let start = 0; start < order.length; start += batchSize) {
    const batch = order.slice(start, start + batchSize);
    const widest = Math.max(batch.length > 1 ? REC_MIN_WIDTH : REC_MIN_WIDTH_ALONE, ...batch.map((i) => crops[i]!.width));
    const width = Math.ceil(widest / REC_STEP) * REC_STEP;
    const data = new Float32Array(batch.length * 3 * REC_HEIGHT * width); // zero = PaddleOCR's padding
    batch.forEach((i, n) => writeCrop(data, n, width, crops[i]!));
    const input = new ort.Tensor('float32', data, [batch.length, 3, REC_HEIGHT, width]);
    const output = (await session.run({ [session.inputNames[0]!]: input }))[session.outputNames[0]!]!;
    const [, steps, classes] = output.dims as number[];
    if (classes !== charset.length) {
      throw new EngineError(
        'model_mismatch',
        `recognition model predicts ${classes} classes but the dictionary gives ${charset.length} (blank + characters + space)`,
      );
    }
    const probs = output.data as Float32Array;
    batch.forEach((i, n) => {
      const read = ctcGreedyDecode(probs, n * steps! * classes!, steps!, classes!, charset, crops[i]!.allowed);
      const decoded = wordSpaces(read, crops[i]!, width / steps!);
      results[i] = { ...decoded, spans: charSpans(decoded, crops[i]!, width / steps!) };
    });
  }
  return results;
}

/**
 * Image columns of each character: a CTC step covers `stepWidth` columns of the resized crop, and
 * the crop was resized from `sourceWidth` columns starting at `left`. A character's run is widened
 * by half a step each side (the model fires near a glyph's middle, not at its edges).
 */
function charSpans(decoded: DecodedText, crop: Crop, stepWidth: number): CharSpan[] {
  const scale = crop.sourceWidth / crop.width;
  const x = (step: number) => crop.left + Math.min(crop.width, Math.max(0, step * stepWidth)) * scale;
  return decoded.chars.map((c) => ({ char: c.char, x0: x(c.first - 0.5), x1: x(c.last + 1.5), p: c.p }));
}

/** The box's pixels resized to REC_HEIGHT; with `enlarge` above 1, by way of a copy that many times larger (image.ts readingScale). */
export async function cropLine(img: RgbImage, box: Box, enlarge = 1): Promise<Crop> {
  const left = Math.max(0, Math.floor(box.x));
  const top = Math.max(0, Math.floor(box.y));
  const w = Math.max(1, Math.min(img.width, Math.ceil(box.x + box.width)) - left);
  const h = Math.max(1, Math.min(img.height, Math.ceil(box.y + box.height)) - top);
  const width = Math.min(REC_MAX_WIDTH, Math.max(1, Math.ceil((REC_HEIGHT * w) / h)));
  let line = rawInput(img).extract({ left, top, width: w, height: h });
  if (enlarge !== 1) line = rawInput(await resized(line, Math.round(w * enlarge), Math.round(h * enlarge)));
  const pixels = await line.resize(width, REC_HEIGHT, { fit: 'fill' }).raw().toBuffer();
  return { pixels, channels: img.channels, width, left, sourceWidth: w };
}

async function resized(img: ReturnType<typeof rawInput>, width: number, height: number): Promise<RgbImage> {
  const { data, info } = await img.resize(width, height, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels === 1 ? 1 : 3 };
}

/** Writes crop `n` of the batch as normalised BGR planes ((v / 255 − 0.5) / 0.5), left-aligned; a grey crop's grey is each plane. */
function writeCrop(data: Float32Array, n: number, batchWidth: number, crop: Crop): void {
  const plane = REC_HEIGHT * batchWidth;
  const base = n * 3 * plane;
  if (crop.channels === 1) {
    for (let y = 0; y < REC_HEIGHT; y++) {
      const row = base + y * batchWidth;
      for (let x = 0; x < crop.width; x++) data[row + x] = crop.pixels[y * crop.width + x] / 127.5 - 1;
      data.copyWithin(row + plane, row, row + crop.width);
      data.copyWithin(row + 2 * plane, row, row + crop.width);
    }
    return;
  }
  for (let y = 0; y < REC_HEIGHT; y++) {
    for (let x = 0; x < crop.width; x++) {
      const src = (y * crop.width + x) * 3;
      const dst = base + y * batchWidth + x;
      data[dst] = crop.pixels[src + 2] / 127.5 - 1;
      data[dst + plane] = crop.pixels[src + 1] / 127.5 - 1;
      data[dst + 2 * plane] = crop.pixels[src] / 127.5 - 1;
    }
  }
}
