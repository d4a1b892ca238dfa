import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { boxBeforeTurn, measureSkew } from './deskew.js';
import type { RgbImage } from './image.js';

/** A white page with 30 dark bars, as lines of text look to a projection profile, turned by `degrees`. */
async function barsPage(degrees: number): Promise<RgbImage> {
  const width = 1200;
  const height = 1500;
  const bars = Array.from({ length: 30 }, (_, i) => `<rect x="150" y="${120 + i * 42}" width="${i % 5 === 4 ? 500 : 900}" height="14" fill="#111"/>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${bars}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .rotate(degrees, { background: '#ffffff' })
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

describe('measureSkew', () => {
  it('finds the turn that straightens lines leaning either way, and none on a straight page', async () => {
    expect(await measureSkew(await barsPage(0.8))).toBeCloseTo(-0.8, 1);
    expect(await measureSkew(await barsPage(-1.5))).toBeCloseTo(1.5, 1);
    expect(await measureSkew(await barsPage(0))).toBe(0);
  });

  it('measures a page lying on its side by its columns', async () => {
    expect(await measureSkew(await barsPage(90.7))).toBeCloseTo(-0.7, 1);
  });

  it('leaves a blank page alone', async () => {
    expect(await measureSkew({ data: Buffer.alloc(300 * 200 * 3, 255), width: 300, height: 200, channels: 3 })).toBe(0);
  });
});

describe('boxBeforeTurn', () => {
  it('turns a box centre back about the image centre, keeping its size', () => {
    expect(boxBeforeTurn({ x: 10, y: 20, width: 30, height: 8 }, 0, 100, 100)).toEqual({ x: 10, y: 20, width: 30, height: 8 });
    // the image was turned 90° clockwise: a point right of centre had been above it
    expect(boxBeforeTurn({ x: 80, y: 46, width: 10, height: 8 }, 90, 100, 100)).toEqual({ x: 45, y: 11, width: 10, height: 8 });
  });
});
