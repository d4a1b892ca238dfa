import ort from 'onnxruntime-node';
import { boxesFromProbabilityMap, type DbOptions, type ScoredBox } from './boxes.js';
import { rawInput, type RgbImage } from './image.js';

/** Text-line detection with PP-OCRv4's DB model: resize, normalise, run, post-process, scale back. */

/**
 * PP-OCR's `DetResizeForTest` with limit_type 'max', at a lower cap than PaddleOCR's 960: on the
 * scanned-page bench (bench/SCANNED-PAGES.md, 200 dpi pages, 2,200 px long) 736 read as many
 * words as 960 at the same CER, with 9–20 % less CPU a page (the detector's input is 0.59 times
 * the size); 640 lost words (recall −0.013). At 736 a section number and its title, an em apart,
 * fall in one box more often than at 960: the recogniser's read of such a box gets its space from
 * the crop's blank columns (word-spaces.ts).
 */
export const DET_MAX_SIDE = 736;
const DET_STRIDE = 32;
// ImageNet statistics; PaddleOCR applies them to OpenCV's BGR planes in this order.
const DET_MEAN = [0.485, 0.456, 0.406];
const DET_STD = [0.229, 0.224, 0.225];
/** PaddleOCR drops final boxes this thin (image pixels). */
const MIN_BOX_SIDE_PX = 3;

export function detectionSize(width: number, height: number, maxSide = DET_MAX_SIDE): { width: number; height: number } {
  const ratio = Math.max(width, height) > maxSide ? maxSide / Math.max(width, height) : 1;
  const snap = (v: number) => Math.max(DET_STRIDE, Math.round((v * ratio) / DET_STRIDE) * DET_STRIDE);
  return { width: snap(width), height: snap(height) };
}

/**
 * A page this many times as tall as it is wide, and taller than twice DET_MAX_SIDE, is detected in
 * strips (stripsOf): resized whole to DET_MAX_SIDE, its text would shrink below what the detector
 * finds (autonum's test page, a 200 dpi sheet seven times as tall as wide, lost every line: its
 * 30 px lines came to the detector as 2 px). A4 and Letter pages, phone captures and formula
 * images are detected whole as before; so is a wide image, whose lines strips would cut.
 */
export const DET_STRIP_MIN_ASPECT = 2.5;
/** A strip's height, in page widths (about an A4 page's shape), and how far strips overlap. */
const STRIP_HEIGHT = 1.5;
const STRIP_OVERLAP = 0.15;

/** Line boxes in the image's pixels, each with its DB score. */
export async function detectLines(session: ort.InferenceSession, img: RgbImage, db: DbOptions = {}): Promise<ScoredBox[]> {
  const strips = stripsOf(img.width, img.height);
  if (strips.length === 1) return detectWhole(session, img, db);
  const boxes: ScoredBox[] = [];
  for (const strip of strips) {
    const region = { left: 0, top: strip.top, width: img.width, height: strip.bottom - strip.top };
    const { data, info } = await rawInput(img).extract(region).raw().toBuffer({ resolveWithObject: true });
    for (const b of await detectWhole(session, { data, width: info.width, height: info.height, channels: img.channels }, db)) {
      const placed = { ...b, y: b.y + strip.top };
      const centre = placed.y + placed.height / 2;
      if (centre >= strip.owns[0] && centre < strip.owns[1]) boxes.push(placed);
    }
  }
  return boxes;
}

export interface Strip {
  top: number;
  bottom: number;
  /** The rows whose boxes this strip reports (by their centre): from the middle of one overlap to the next's. */
  owns: [number, number];
}

/**
 * The strips of rows a width × height page is detected in: one (the whole page) unless it is
 * DET_STRIP_MIN_ASPECT times as tall as wide and taller than twice DET_MAX_SIDE, else strips
 * STRIP_HEIGHT widths tall overlapping by STRIP_OVERLAP or more, the first at the page's top and
 * the last at its bottom. A line cut by one strip's end lies whole in the next (the overlap is
 * many lines), and each strip reports the boxes centred in its rows, so a line is found once.
 */
export function stripsOf(width: number, height: number): Strip[] {
  if (height < DET_STRIP_MIN_ASPECT * width || height <= 2 * DET_MAX_SIDE) return [{ top: 0, bottom: height, owns: [0, height] }];
  const length = Math.round(STRIP_HEIGHT * width);
  const overlap = Math.round(STRIP_OVERLAP * width);
  // As few strips as overlap by STRIP_OVERLAP at least, spread evenly from the page's top to its bottom.
  const count = Math.ceil((height - overlap) / (length - overlap));
  const tops = Array.from({ length: count }, (_, k) => Math.round((k * (height - length)) / (count - 1)));
  return tops.map((top, k) => ({
    top,
    bottom: top + length,
    owns: [k === 0 ? 0 : (top + tops[k - 1]! + length) / 2, k === count - 1 ? height : (tops[k + 1]! + top + length) / 2],
  }));
}

/** Line boxes of the image detected at once, resized to DET_MAX_SIDE. */
async function detectWhole(session: ort.InferenceSession, img: RgbImage, db: DbOptions): Promise<ScoredBox[]> {
  const size = detectionSize(img.width, img.height);
  const pixels = await rawInput(img).resize(size.width, size.height, { fit: 'fill' }).raw().toBuffer();
  const input = new ort.Tensor('float32', bgrPlanes(pixels, size.width, size.height, img.channels), [1, 3, size.height, size.width]);
  const output = await session.run({ [session.inputNames[0]]: input });
  const prob = output[session.outputNames[0]].data as Float32Array;
  const sx = img.width / size.width;
  const sy = img.height / size.height;
  const boxes: ScoredBox[] = [];
  for (const b of boxesFromProbabilityMap(prob, size.width, size.height, db)) {
    const x0 = Math.max(0, Math.round(b.x * sx));
    const y0 = Math.max(0, Math.round(b.y * sy));
    const x1 = Math.min(img.width, Math.round((b.x + b.width) * sx));
    const y1 = Math.min(img.height, Math.round((b.y + b.height) * sy));
    if (x1 - x0 <= MIN_BOX_SIDE_PX || y1 - y0 <= MIN_BOX_SIDE_PX) continue;
    boxes.push({ x: x0, y: y0, width: x1 - x0, height: y1 - y0, score: b.score });
  }
  return boxes;
}

/** The normalised B, G, R planes of RGB pixels, or of grey ones (each grey its own B, G and R). */
function bgrPlanes(rgb: Buffer, width: number, height: number, channels: 1 | 3): Float32Array {
  const plane = width * height;
  const out = new Float32Array(3 * plane);
  if (channels === 1) {
    for (let c = 0; c < 3; c++) {
      const level = Float32Array.from({ length: 256 }, (_, v) => (v / 255 - DET_MEAN[c]) / DET_STD[c]);
      const planeOut = out.subarray(c * plane, (c + 1) * plane);
      for (let i = 0; i < plane; i++) planeOut[i] = level[rgb[i]];
    }
    return out;
  }
  for (let i = 0; i < plane; i++) {
    for (let c = 0; c < 3; c++) {
      // plane c holds B, G, R in turn: source channel 2 - c
      out[c * plane + i] = (rgb[i * 3 + 2 - c] / 255 - DET_MEAN[c]) / DET_STD[c];
    }
  }
  return out;
}
