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
    const uprightImg: RgbImage = { data: upright, width: 40, height: 30, channels: 3 };
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
  it('gives three channels for a greyscale PNG with alpha, flattened onto white, when asked for RGB', async () => {
    const png = await sharp(Buffer.alloc(4 * 2 * 2), { raw: { width: 4, height: 2, channels: 2 } })
      .png()
      .toBuffer(); // black, transparent
    const img = await decodeImage(png, { rgb: true });
    expect(img).toMatchObject({ width: 4, height: 2, channels: 3 });
    expect([...img.data]).toEqual(new Array(24).fill(255));
    expect(await decodeImage(png)).toMatchObject({ width: 4, height: 2, channels: 1, data: Buffer.alloc(8, 255) });
  });

  it('gives one channel for a grey page, whether its file is grey or RGB, and three for a page with colour', async () => {
    const grey = Buffer.from([0, 60, 120, 255, 30, 90]);
    const greyPng = await sharp(grey, { raw: { width: 3, height: 2, channels: 1 } })
      .toColourspace('b-w')
      .png()
      .toBuffer();
    const rgbPng = await sharp(grey, { raw: { width: 3, height: 2, channels: 1 } })
      .toColourspace('srgb')
      .png()
      .toBuffer();
    expect((await sharp(greyPng).metadata()).channels).toBe(1);
    expect((await sharp(rgbPng).metadata()).channels).toBe(3);
    for (const png of [greyPng, rgbPng]) expect(await decodeImage(png)).toEqual({ data: grey, width: 3, height: 2, channels: 1 });
    const colour = Buffer.from([...grey.subarray(0, 5)].flatMap((v) => [v, v, v]).concat([30, 90, 30]));
    const colourPng = await sharp(colour, { raw: { width: 3, height: 2, channels: 3 } })
      .png()
      .toBuffer();
    expect(await decodeImage(colourPng)).toEqual({ data: colour, width: 3, height: 2, channels: 3 });
  });

  it('refuses bytes that are not an image', async () => {
    await expect(decodeImage(Buffer.from('not an image'))).rejects.toMatchObject({ name: 'EngineError', kind: 'image_invalid' });
  });
});

describe('readingScale', () => {
  it('enlarges the lines of page scans of 150–250 dpi only', () => {
    const page = { data: Buffer.alloc(0), width: 1700, height: 2200, channels: 3 as const };
    expect(readingScale(page)).toBe(READ_SCALE);
    expect(readingScale({ ...page, width: 400, height: 120 })).toBe(1);
    expect(readingScale({ ...page, width: 2550, height: 3300 })).toBe(1);
  });
});
