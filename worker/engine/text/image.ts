import sharp from 'sharp';
import type { Rotation } from '../../../page/geometry.js';
import { EngineError } from '../errors.js';

export { type Box, boxToInput, boxToUpright, type Rotation } from '../../../page/geometry.js';

/** An 8-bit RGB image, row-major, 3 bytes a pixel. */
export interface RgbImage {
  data: Buffer;
  width: number;
  height: number;
}

/** Decodes PNG/JPEG (any format sharp reads), applies EXIF orientation and flattens alpha onto white. */
export async function decodeImage(input: Buffer): Promise<RgbImage> {
  try {
    const { data, info } = await sharp(input).rotate().flatten({ background: '#ffffff' }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    // toColourspace('srgb') yields three bands from grey, grey + alpha, RGBA and CMYK alike
    if (info.channels !== 3) throw new Error(`${info.channels} channels after conversion to sRGB`);
    return { data, width: info.width, height: info.height };
  } catch (cause) {
    throw new EngineError('image_invalid', `image cannot be decoded: ${(cause as Error).message}`, { cause });
  }
}

export function rawInput(img: RgbImage): sharp.Sharp {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } });
}

export async function rotateImage(img: RgbImage, rotation: Rotation): Promise<RgbImage> {
  if (rotation === 0) return img;
  const { data, info } = await rawInput(img).rotate(rotation).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * The line crops of page scans of 150–250 dpi (long side READ_SCALE_MIN_SIDE..READ_SCALE_MAX_SIDE)
 * are enlarged READ_SCALE times before they are scaled to the recogniser's 48 px (recognize.ts
 * cropLine): small lines read better resampled twice. On the scanned-page bench (TeX Live manuals
 * at 200 dpi with noise and skew) word recall rose from 0.88 to 0.92 and CER fell from 3.9 % to
 * 3.4 %, clean pages unchanged. Only the crops are enlarged, not the page (that cost 0.2 CPU s a
 * page, and the detector sees at most 960 px anyway). Smaller images (formulas, photos of a line)
 * and larger scans are read as they are.
 */
export const READ_SCALE = 1.3;
const READ_SCALE_MIN_SIDE = 1400;
const READ_SCALE_MAX_SIDE = 2600;

export function readingScale(img: RgbImage): number {
  const side = Math.max(img.width, img.height);
  return side >= READ_SCALE_MIN_SIDE && side < READ_SCALE_MAX_SIDE ? READ_SCALE : 1;
}
