import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { handwrittenLinePng } from '../../test/support/ink-fixtures.js';
import { binarise } from '../engine/math/image/binarise.js';
import type { GrayImage } from '../engine/math/types.js';
import { inkBands } from './bands.js';
import { InkKindClassifier, inkWindows, WINDOW_HEIGHT, WINDOW_WIDTH } from './ink-kind.js';

async function gray(png: Buffer): Promise<GrayImage> {
  const { data, info } = await sharp(png).flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

const windowsOf = (image: GrayImage) => {
  const mask = binarise(image);
  return inkWindows(image, mask, inkBands(mask));
};

/** A line of type set by librsvg in a system serif font. */
const printedLinePng = (text: string) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="90"><rect width="100%" height="100%" fill="white"/><text x="20" y="60" font-family="DejaVu Serif" font-size="40">${text}</text></svg>`,
    ),
  )
    .png()
    .toBuffer();

describe('ink windows', () => {
  it('scales each ink row to the window height and keeps its ink, in at most three windows a row', async () => {
    const image: GrayImage = { width: 400, height: 100, data: new Uint8Array(400 * 100).fill(250) };
    // One dark bar 300 × 24 px: its band (with margin) becomes 48 px high, about 650 px wide.
    for (let y = 40; y < 64; y++) image.data.fill(10, y * 400 + 50, y * 400 + 350);
    const w = windowsOf(image);
    expect(w.pixels.length).toBe(w.weights.length * WINDOW_HEIGHT * WINDOW_WIDTH);
    expect(w.weights.length).toBe(3);
    expect(Math.max(...w.pixels)).toBeCloseTo(1, 2);
    expect(Math.min(...w.pixels)).toBeGreaterThanOrEqual(0);
    // Each window is full of the bar's rows: 24 of the band's 29.76 rows, scaled to 48.
    const rowsInked = w.weights[0]! / WINDOW_WIDTH;
    expect(rowsInked).toBeGreaterThan(36);
    expect(rowsInked).toBeLessThan(41);
  });

  it('finds nothing on blank paper', () => {
    const blank: GrayImage = { width: 200, height: 50, data: new Uint8Array(200 * 50).fill(255) };
    expect(windowsOf(blank).weights).toEqual([]);
  });
});

describe('InkKindClassifier (shipped models/ink-kind.onnx)', () => {
  let model: InkKindClassifier;
  beforeAll(async () => {
    model = await InkKindClassifier.load();
  });

  const handwriting = async (png: Buffer) => {
    const image = await gray(png);
    const mask = binarise(image);
    return model.handwriting(image, mask, inkBands(mask));
  };

  it('calls held-out real pen ink handwriting, at two sizes and pen widths', async () => {
    expect(await handwriting(await handwrittenLinePng(60, 3))).toBeGreaterThan(0.5);
    expect(await handwriting(await handwrittenLinePng(32, 1.5))).toBeGreaterThan(0.5);
  });

  it('calls a typeset line printed', async () => {
    expect(await handwriting(await printedLinePng('The sum of a and b is at most 2 + x'))).toBeLessThan(0.5);
  });

  it('has nothing to say about a blank image', async () => {
    expect(
      await handwriting(
        await sharp({ create: { width: 80, height: 40, channels: 3, background: '#fff' } })
          .png()
          .toBuffer(),
      ),
    ).toBeUndefined();
  });
});
