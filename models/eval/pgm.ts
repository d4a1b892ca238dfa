import { readFile, writeFile } from 'node:fs/promises';
import type { Box, GrayImage } from '../../worker/engine/math/types.js';

/**
 * Binary greyscale PGM (P5, 8 bit): what `pdftoppm -gray` writes, and the cache's crop format,
 * so the harness reads pixels without an image decoder in between.
 */

export async function readPgm(path: string): Promise<GrayImage> {
  const bytes = await readFile(path);
  // Header: magic, width, height, maxval, separated by whitespace, then one whitespace byte before the pixels.
  const fields: string[] = [];
  let offset = 0;
  while (fields.length < 4) {
    while (/\s/.test(String.fromCharCode(bytes[offset]))) offset++;
    if (bytes[offset] === 0x23) {
      while (bytes[offset] !== 0x0a) offset++;
      continue;
    }
    const start = offset;
    while (!/\s/.test(String.fromCharCode(bytes[offset]))) offset++;
    fields.push(bytes.subarray(start, offset).toString('ascii'));
  }
  const [magic, width, height, maxval] = [fields[0], Number(fields[1]), Number(fields[2]), Number(fields[3])];
  if (magic !== 'P5' || maxval !== 255) throw new Error(`${path}: not an 8-bit binary PGM (${magic}, maxval ${maxval})`);
  const data = new Uint8Array(bytes.subarray(offset + 1, offset + 1 + width * height));
  if (data.length !== width * height) throw new Error(`${path}: truncated PGM`);
  return { data, width, height };
}

export async function writePgm(path: string, image: GrayImage): Promise<void> {
  const header = Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'ascii');
  await writeFile(path, Buffer.concat([header, image.data]));
}

/** Pixels darker than this are ink; pdftoppm's anti-aliased edges fade to exactly 255. */
const INK_BELOW = 250;

/** The smallest box (x1, y1 exclusive) holding every ink pixel, or undefined for a blank image. */
export function inkBox(image: GrayImage): Box | undefined {
  let x0 = image.width;
  let y0 = image.height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < image.height; y++) {
    const row = y * image.width;
    for (let x = 0; x < image.width; x++) {
      if (image.data[row + x] >= INK_BELOW) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      y1 = y;
    }
  }
  return x1 < 0 ? undefined : { x0, y0, x1: x1 + 1, y1: y1 + 1 };
}

/** Copies a box out of an image; parts of the box outside the image come out white. */
export function cropImage(image: GrayImage, box: Box): GrayImage {
  const width = box.x1 - box.x0;
  const height = box.y1 - box.y0;
  const data = new Uint8Array(width * height).fill(255);
  for (let y = 0; y < height; y++) {
    const sy = box.y0 + y;
    if (sy < 0 || sy >= image.height) continue;
    for (let x = 0; x < width; x++) {
      const sx = box.x0 + x;
      if (sx >= 0 && sx < image.width) data[y * width + x] = image.data[sy * image.width + sx];
    }
  }
  return { data, width, height };
}
