import { describe, expect, it } from 'vitest';
import { boxesFromProbabilityMap, connectedComponents } from './boxes.js';

function map(width: number, height: number, rects: [number, number, number, number, number][]): Float32Array {
  const prob = new Float32Array(width * height);
  for (const [x0, y0, x1, y1, p] of rects) {
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) prob[y * width + x] = p;
  }
  return prob;
}

describe('connectedComponents', () => {
  it('joins diagonal neighbours and keeps separate blobs apart', () => {
    const prob = map(10, 10, [
      [1, 1, 2, 2, 0.9],
      [3, 3, 3, 3, 0.9],
      [7, 7, 8, 8, 0.9],
    ]);
    const components = connectedComponents(prob, 10, 10, 0.3);
    expect(components).toMatchObject([
      { minX: 1, minY: 1, maxX: 3, maxY: 3 },
      { minX: 7, minY: 7, maxX: 8, maxY: 8 },
    ]);
    // rows 1–2 hold the 2×2 square, row 3 the single diagonal pixel
    expect([...components[0]!.rowFirst]).toEqual([1, 1, 3]);
    expect([...components[0]!.rowLast]).toEqual([2, 2, 3]);
  });

  it('scores a kernel by its outline, so a line with a tall formula is not lost to its empty corners', () => {
    // A 40×4 line of 0.9 with a 4×12 sum sticking up at its left: its box is mostly empty.
    const width = 40;
    const prob = map(width, 16, [
      [0, 12, 39, 15, 0.9],
      [0, 0, 3, 11, 0.9],
    ]);
    const boxes = boxesFromProbabilityMap(prob, width, 16);
    expect(boxes).toHaveLength(1);
    expect(boxes[0]!.score).toBeCloseTo(0.9, 5);
  });
});

describe('boxesFromProbabilityMap', () => {
  it('grows a kernel by area × ratio / perimeter on each side', () => {
    const [box] = boxesFromProbabilityMap(map(100, 40, [[10, 10, 50, 20, 0.9]]), 100, 40);
    const d = (40 * 10 * 1.5) / (2 * 50);
    expect(box).toMatchObject({ x: 10 - d, y: 10 - d, width: 40 + 2 * d, height: 10 + 2 * d });
    expect(box.score).toBeCloseTo(0.9);
  });

  it('drops kernels thinner than the minimum size and those with a low mean probability', () => {
    const prob = map(100, 40, [
      [10, 5, 60, 6, 0.9],
      [10, 20, 60, 30, 0.4],
    ]);
    expect(boxesFromProbabilityMap(prob, 100, 40)).toEqual([]);
  });
});
