import { describe, expect, it } from 'vitest';
import { topIndices } from './classifier.js';

describe("the classifier's ranking", () => {
  it('takes the largest probabilities in order, the first class on ties, as a stable sort of every class would', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let trial = 0; trial < 200; trial++) {
      const values = Float32Array.from({ length: 1 + Math.floor(random() * 300) }, () => Math.round(random() * 20) / 20);
      const sorted = [...values.keys()].sort((a, b) => values[b]! - values[a]!).slice(0, 4);
      expect(topIndices(values, 4)).toEqual(sorted);
    }
  });
});
