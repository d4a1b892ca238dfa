import { describe, expect, it } from 'vitest';
import { linesToGlyphs } from './scanned-pages.js';

const box = (x: number, width: number) => ({ x, y: 100, width, height: 20 });

describe('linesToGlyphs', () => {
  it('spreads each word over its own box and lets a space span the gap to the next word', () => {
    const glyphs = linesToGlyphs({ width: 1000, height: 1000, lines: [{ text: 'ab cd', confidence: 0.9, box: box(10, 330), words: [{ text: 'ab', box: box(10, 20) }, { text: 'cd', box: box(300, 40) }] }] }, 0.5);
    expect(glyphs.map((g) => g.ch).join('')).toBe('ab cd');
    expect(glyphs.map((g) => [g.x, g.w])).toEqual([[5, 5], [10, 5], [15, 135], [150, 10], [160, 10]]);
    expect(glyphs[0]).toMatchObject({ base: 58, size: 8 });
  });

  it('stretches the first and last words to the ends of the line box', () => {
    const glyphs = linesToGlyphs({ width: 1000, height: 1000, lines: [{ text: 'ab cd', confidence: 0.9, box: box(0, 400), words: [{ text: 'ab', box: box(10, 20) }, { text: 'cd', box: box(300, 40) }] }] }, 1);
    expect(glyphs[0]!.x).toBe(0);
    const last = glyphs.at(-1)!;
    expect(last.x + last.w).toBe(400);
  });

  it('spreads a line without word boxes evenly over the line', () => {
    const glyphs = linesToGlyphs({ width: 1000, height: 1000, lines: [{ text: 'abcd', confidence: 0.9, box: box(0, 40) }] }, 1);
    expect(glyphs.map((g) => g.x)).toEqual([0, 10, 20, 30]);
  });
});
