import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { boxToInput, decodeImage, READ_SCALE, readingScale, rotateImage, type Box, type RgbImage, type Rotation } from './image.js';

/** The bounding box of the black pixels. */
function inkBox(img: RgbImage): Box {
  let [x0, y0, x1, y1] = [img.width, img.height, -1, -1];
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      if (img.data[(y * img.width + x) * 3] > 0) continue;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
  }
  return { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

describe('boxToInput', () => {
  it('maps a box found in the upright image back onto the rotated input', async () => {
    const upright = Buffer.alloc(40 * 30 * 3, 255);
    for (let y = 5; y < 9; y++) for (let x = 3; x < 20; x++) upright.fill(0, (y * 40 + x) * 3, (y * 40 + x) * 3 + 3);
    const uprightImg: RgbImage = { data: upright, width: 40, height: 30 };
    const expected = inkBox(uprightImg);
    for (const rotation of [0, 90, -90, 180] as Rotation[]) {
      // the input is the upright page turned the other way; turning it by `rotation` undoes that
      const input = await rotateImage(uprightImg, (rotation === 0 ? 0 : rotation === 180 ? 180 : -rotation) as Rotation);
      expect((await rotateImage(input, rotation)).data.equals(upright)).toBe(true);
      expect(boxToInput(expected, rotation, 40, 30)).toEqual(inkBox(input));
    }
  });
});

describe('decodeImage', () => {
  it('gives three channels for a greyscale PNG with alpha, flattened onto white', async () => {
    const png = await sharp(Buffer.alloc(4 * 2 * 2), { raw: { width: 4, height: 2, channels: 2 } })
      .png()
      .toBuffer(); // black, transparent
    const img = await decodeImage(png);
    expect(img).toMatchObject({ width: 4, height: 2 });
    expect([...img.data]).toEqual(new Array(24).fill(255));
  });

  it('refuses bytes that are not an image', async () => {
    await expect(decodeImage(Buffer.from('not an image'))).rejects.toMatchObject({ name: 'EngineError', kind: 'image_invalid' });
  });
});

describe('readingScale', () => {
  it('enlarges the lines of page scans of 150–250 dpi only', () => {
    const page = { data: Buffer.alloc(0), width: 1700, height: 2200 };
    expect(readingScale(page)).toBe(READ_SCALE);
    expect(readingScale({ ...page, width: 400, height: 120 })).toBe(1);
    expect(readingScale({ ...page, width: 2550, height: 3300 })).toBe(1);
  });
});
