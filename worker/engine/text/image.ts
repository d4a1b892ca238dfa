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
    const { data, info } = await sharp(input)
      .rotate()
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
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

