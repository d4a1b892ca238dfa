import sharp from 'sharp';
import type { GrayImage } from '../engine/math/types.js';
import type { Rotation } from '../engine/text/image.js';
import type { Band } from './bands.js';
import { BAND_MARGIN_PX } from './formula-read.js';

/** The page image as the maths pass reads it: turned upright, and cut into the bands of its rows. */

/**
 * The image turned upright by `rotation`, in grey levels; first, when `skew` is not 0, turned by
 * `skew` degrees clockwise on white and cut back to its own size, as the text engine's turnImage.
 */
export async function uprightGray(png: Buffer, rotation: Rotation, skew = 0): Promise<GrayImage> {
  const grey = (input: sharp.Sharp) => input.flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  let input = sharp(png);
  if (skew) {
    const flat = await grey(sharp(png).rotate());
    const raw = { raw: { width: flat.info.width, height: flat.info.height, channels: 1 as const } };
    const turned = await sharp(flat.data, raw).rotate(skew, { background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true });
    const [left, top] = [Math.floor((turned.info.width - flat.info.width) / 2), Math.floor((turned.info.height - flat.info.height) / 2)];
    input = sharp(turned.data, { raw: { width: turned.info.width, height: turned.info.height, channels: turned.info.channels } }).extract({
      left,
      top,
      width: flat.info.width,
      height: flat.info.height,
    });
  }
  const { data, info } = await grey(input.rotate(rotation));
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** The band's rows and ink columns of the upright image, with a white margin, binarised as its page is. */
export function crop(gray: GrayImage, span: Band): GrayImage {
  // Inside the image, and never of negative width (an empty crop reads as nothing).
  const x0 = Math.min(Math.max(0, span.x0), gray.width);
  const band = { ...span, x0, x1: Math.min(Math.max(x0, span.x1), gray.width) };
  const w = band.x1 - band.x0 + 2 * BAND_MARGIN_PX;
  const h = band.y1 - band.y0 + 2 * BAND_MARGIN_PX;
  const data = new Uint8Array(w * h).fill(255);
  for (let y = band.y0; y < band.y1; y++) {
    const from = y * gray.width;
    data.set(gray.data.subarray(from + band.x0, from + band.x1), (y - band.y0 + BAND_MARGIN_PX) * w + BAND_MARGIN_PX);
  }
  return { data, width: w, height: h, ...(gray.scan !== undefined ? { scan: gray.scan } : {}) };
}
