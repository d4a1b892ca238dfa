import { describe, expect, it } from 'vitest';
import { binarise } from './binarise.js';
import { connectedComponents } from './components.js';
import { CROP_SIZE, normaliseCrop, squeezedCrop } from './normalise.js';
import { averaged } from './wide-views.js';

/** A filled 40×24 block of ink (wider than tall, as a flat hand-drawn x is) on a 60×40 page. */
function wideBlock() {
  const [width, height] = [60, 40];
  const data = new Uint8Array(width * height).fill(255);
  for (let y = 8; y < 32; y++) for (let x = 10; x < 50; x++) data[y * width + x] = 0;
  return connectedComponents(binarise({ data, width, height }));
}

const inkedRows = (pixels: Float32Array) => [...pixels.keys()].filter((i) => pixels[i]! > 0.5).map((i) => Math.floor(i / CROP_SIZE));

describe('the squeezed view of a wide crop', () => {
  it('fills the canvas both ways and says the crop is square, where the normal crop keeps the aspect', () => {
    const map = wideBlock();
    const box = map.components[0]!.box;
    const normal = normaliseCrop(map, [map.components[0]!.id], box, 40);
    const squeezed = squeezedCrop(map, [map.components[0]!.id], box, 40);
    // 40×24 scaled by 28/40: 16.8 rows tall in the normal crop, all 28 inner rows when squeezed.
    expect(new Set(inkedRows(normal.pixels)).size).toBeLessThan(18);
    expect(new Set(inkedRows(squeezed.pixels)).size).toBe(CROP_SIZE - 4);
    expect(normal.features[0]).toBeCloseTo(Math.log2(40 / 24) / 4, 5);
    expect([...squeezed.features]).toEqual([0, expect.closeTo(24 / 40, 5), 1]);
  });
});

describe('averaged views', () => {
  it('averages the listed readings of both views and re-ranks them, so a reading both views share wins', () => {
    const wide = {
      latex: '\\neq',
      confidence: 0.23,
      alternatives: [
        { latex: 'x', confidence: 0.16 },
        { latex: '\\propto', confidence: 0.11 },
      ],
    };
    const square = {
      latex: 'x',
      confidence: 0.5,
      alternatives: [
        { latex: 'X', confidence: 0.2 },
        { latex: '\\times', confidence: 0.1 },
      ],
    };
    const mean = averaged(wide, square);
    expect(mean.latex).toBe('x');
    expect(mean.confidence).toBeCloseTo(0.33, 5);
    expect(mean.alternatives).toEqual([
      { latex: '\\neq', confidence: expect.closeTo(0.115, 5) },
      { latex: 'X', confidence: expect.closeTo(0.1, 5) },
    ]);
  });
});
