import { describe, expect, it } from 'vitest';
import type { MathSymbol } from '../types.js';
import { preferCaseBySize } from './letter-case.js';

const glyph = (latex: string, x: number, y0: number, y1: number): MathSymbol => ({
  latex,
  box: { x0: x, y0, x1: x + 20, y1 },
  confidence: 0.6,
  alternatives: [{ latex: latex === latex.toLowerCase() ? latex.toUpperCase() : latex.toLowerCase(), confidence: 0.3 }],
});
const read = (symbols: MathSymbol[]) =>
  preferCaseBySize(symbols)
    .map((s) => s.latex)
    .join('');

describe('preferCaseBySize', () => {
  it('reads a letter drawn alike in both cases as small or capital by its height against a tall neighbour on its baseline', () => {
    expect(read([glyph('2', 0, 0, 40), glyph('V', 30, 18, 40)])).toBe('2v');
    expect(read([glyph('z', 0, 2, 40), glyph('+', 30, 10, 30), glyph('b', 60, 0, 40)])).toBe('Z+b');
  });

  it('keeps the label with no tall neighbour on its baseline, between the two sizes, or for other letters', () => {
    expect(read([glyph('V', 0, 18, 40)])).toBe('V');
    expect(read([glyph('h', 0, 0, 40), glyph('V', 25, -10, 5)])).toBe('hV'); // a raised script
    expect(read([glyph('2', 0, 0, 40), glyph('V', 30, 7, 40)])).toBe('2V'); // 0.83 of the digit: either
    expect(read([glyph('2', 0, 0, 40), glyph('K', 30, 18, 40)])).toBe('2K');
  });
});
