import { describe, expect, it } from 'vitest';
import type { Classification } from '../image/classifier.js';
import { equalsFromPair } from './equals.js';

const box = (x0: number, y0: number, x1: number, y1: number) => ({ x0, y0, x1, y1 });
/** Two bars of a hand-drawn `=` in writing whose symbols are 40 high: the second drawn short, under the first. */
const bars = [box(0, 10, 30, 13), box(8, 22, 20, 25)];
const read = (latex: string, confidence: number, alternatives: Classification['alternatives'] = []): Classification => ({ latex, confidence, alternatives });

describe('equalsFromPair', () => {
  it('reads two stacked flat bars as = whatever two short bars look like to the classifier', () => {
    const pair = equalsFromPair(read(':', 0.6, [{ latex: '\\div', confidence: 0.3 }]), bars, 40);
    expect(pair.latex).toBe('=');
    expect(pair.confidence).toBeCloseTo(1, 6);
    expect(pair.alternatives?.map((a) => a.latex)).toEqual([':', '\\div']);
  });

  it('keeps another sign of two flat strokes only where the classifier is sure enough to beat how rare it is', () => {
    expect(equalsFromPair(read('\\approx', 0.7, [{ latex: ':', confidence: 0.3 }]), bars, 40).latex).toBe('=');
    expect(equalsFromPair(read('\\approx', 0.999, [{ latex: ':', confidence: 0.001 }]), bars, 40).latex).toBe('\\approx');
  });

  it('leaves groups that are no pair of bars alone', () => {
    expect(equalsFromPair(read(':', 0.9), [box(0, 10, 4, 14), box(0, 22, 4, 26)], 40).latex).toBe(':'); // two dots
    expect(equalsFromPair(read('x', 0.9), [box(0, 0, 30, 30), box(0, 0, 30, 30)], 40).latex).toBe('x');
    expect(equalsFromPair(read('7', 0.9), [bars[0]], 40).latex).toBe('7');
  });
});
