import { rawInput, type Box, type RgbImage } from './image.js';

/**
 * Skew of a scanned page: the small angle its text lines lean by. A page fed crooked through a
 * scanner by even half a degree has lines that drift by a line's height across the page, and the
 * detector then joins neighbouring lines into one box the recogniser cannot read. The angle is
 * measured once on a small grey copy by projection profiles (the turn that makes the rows, or for
 * a page lying on its side the columns, of ink most sharply banded), and the page is turned once.
 */

/** Width of the grey copy the angle is measured on. */
const MEASURE_WIDTH = 600;
/** Widest skew looked for, in degrees either way. */
const MAX_SKEW = 5;
const COARSE_STEP = 0.5;
const FINE_STEP = 0.05;
/** Below this the page is left as it is (a turn softens the glyphs for nothing). */
export const MIN_CORRECTED_SKEW = 0.15;
/**
 * How much sharper the straightened profile must be than the unturned one: lines of text that
 * lean gain far more (1.5× and up at half a degree); a formula or a photo gains next to nothing
 * from any turn, and is left alone.
 */
const MIN_SHARPNESS_GAIN = 1.1;

/** Ink pixels of the grey copy, as coordinates about its centre. */
interface Ink {
  xs: Float32Array;
  ys: Float32Array;
  /** Bins a profile needs: the copy's diagonal. */
  span: number;
}

async function inkOf(img: RgbImage): Promise<Ink> {
  const scale = Math.min(1, MEASURE_WIDTH / img.width);
  const { data, info } = await rawInput(img)
    .resize(Math.max(1, Math.round(img.width * scale)))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const threshold = otsu(data);
  let n = 0;
  for (let i = 0; i < data.length; i++) if (data[i]! < threshold) n++;
  const xs = new Float32Array(n);
  const ys = new Float32Array(n);
  const cx = info.width / 2;
  const cy = info.height / 2;
  let k = 0;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      if (data[y * info.width + x]! < threshold) {
        xs[k] = x - cx;
        ys[k++] = y - cy;
      }
    }
  }
  return { xs, ys, span: Math.ceil(Math.hypot(info.width, info.height)) + 2 };
}

/** Otsu's threshold of an 8-bit grey buffer. */
export function otsu(grey: Uint8Array): number {
  const hist = new Float64Array(256);
  for (let i = 0; i < grey.length; i++) hist[grey[i]!]++;
  let sum = 0;
  for (let v = 0; v < 256; v++) sum += v * hist[v]!;
  let weightBelow = 0;
  let sumBelow = 0;
  let best = 0;
  let threshold = 128;
  for (let v = 0; v < 256; v++) {
    weightBelow += hist[v]!;
    if (!weightBelow || weightBelow === grey.length) continue;
    sumBelow += v * hist[v]!;
    const meanBelow = sumBelow / weightBelow;
    const meanAbove = (sum - sumBelow) / (grey.length - weightBelow);
    const between = weightBelow * (grey.length - weightBelow) * (meanBelow - meanAbove) ** 2;
    if (between > best) {
      best = between;
      threshold = v + 1;
    }
  }
  return threshold;
}

/**
 * How sharply banded the ink is once turned by `degrees` clockwise: the sum of squared
 * differences between neighbouring bins of the row profile (`rows`) or the column profile.
 */
function sharpness(ink: Ink, degrees: number, rows: boolean, profile: Float64Array): number {
  const a = (degrees * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const half = ink.span / 2 + 0.5;
  profile.fill(0);
  for (let i = 0; i < ink.xs.length; i++) {
    const x = ink.xs[i]!;
    const y = ink.ys[i]!;
    // a point turned clockwise by a (y pointing down): x' = x cos − y sin, y' = x sin + y cos
    const v = rows ? x * sin + y * cos : x * cos - y * sin;
    profile[(v + half) | 0]++;
  }
  let s = 0;
  for (let i = 1; i < profile.length; i++) s += (profile[i]! - profile[i - 1]!) ** 2;
  return s;
}

/** Clockwise degrees that straighten the page's lines (0 when it has no ink to go by). */
export async function measureSkew(img: RgbImage): Promise<number> {
  const ink = await inkOf(img);
  if (ink.xs.length < 200) return 0;
  const profile = new Float64Array(ink.span + 2);
  const best = (from: number, to: number, step: number, rows: boolean) => {
    let angle = 0;
    let top = -1;
    for (let d = from; d <= to + 1e-9; d += step) {
      const s = sharpness(ink, d, rows, profile);
      if (s > top) [top, angle] = [s, d];
    }
    return { angle, top };
  };
  const rows = best(-MAX_SKEW, MAX_SKEW, COARSE_STEP, true);
  const cols = best(-MAX_SKEW, MAX_SKEW, COARSE_STEP, false);
  const useRows = rows.top >= cols.top;
  const coarse = useRows ? rows.angle : cols.angle;
  const fine = best(coarse - COARSE_STEP, coarse + COARSE_STEP, FINE_STEP, useRows);
  if (fine.top < MIN_SHARPNESS_GAIN * sharpness(ink, 0, useRows, profile)) return 0;
  return Math.round(fine.angle * 100) / 100;
}

/** The image turned clockwise by `degrees` about its centre, on white, cut back to its own size. */
export async function turnImage(img: RgbImage, degrees: number): Promise<RgbImage> {
  if (!degrees) return img;
  const turned = await rawInput(img).rotate(degrees, { background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true });
  const left = Math.floor((turned.info.width - img.width) / 2);
  const top = Math.floor((turned.info.height - img.height) / 2);
  const data = await rawInput({ data: turned.data, width: turned.info.width, height: turned.info.height, channels: img.channels })
    .extract({ left, top, width: img.width, height: img.height })
    .raw()
    .toBuffer();
  return { data, width: img.width, height: img.height, channels: img.channels };
}

/**
 * A box found in the image turned by `degrees` (turnImage), back in the unturned image's pixels:
 * its centre turned back, its size kept (the turns corrected are a few degrees at most).
 */
export function boxBeforeTurn(box: Box, degrees: number, width: number, height: number): Box {
  if (!degrees) return box;
  const a = (-degrees * Math.PI) / 180;
  const cx = box.x + box.width / 2 - width / 2;
  const cy = box.y + box.height / 2 - height / 2;
  const x = cx * Math.cos(a) - cy * Math.sin(a) + width / 2;
  const y = cx * Math.sin(a) + cy * Math.cos(a) + height / 2;
  return { x: Math.round(x - box.width / 2), y: Math.round(y - box.height / 2), width: box.width, height: box.height };
}
