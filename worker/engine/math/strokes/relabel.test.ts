import { describe, expect, it } from 'vitest';
import type { MathSymbol } from '../types.js';
import { settledAmong } from './relabel.js';

describe('settledAmong', () => {
  it('gives the shape’s confidence, and never more than certain when a symbol is settled twice', () => {
    const tee: MathSymbol = { latex: 't', box: { x0: 0, y0: 0, x1: 10, y1: 10 }, confidence: 0.56, alternatives: [{ latex: '+', confidence: 0.4 }] };
    const once = settledAmong(tee, '+', ['t', '+']);
    expect(once.latex).toBe('+');
    expect(once.confidence).toBeCloseTo(0.96, 6);
    // operators.ts made it `+` between operands; plus-by-place.ts settles it again among t, T, f and +.
    const twice = settledAmong(once, '+', ['t', 'T', 'f', '+']);
    expect(twice.latex).toBe('+');
    expect(twice.confidence).toBeLessThanOrEqual(1);
  });
});
