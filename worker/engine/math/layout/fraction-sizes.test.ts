import { describe, expect, it } from 'vitest';
import type { MathSymbol } from '../types.js';
import { parseLayout } from './index.js';

const glyph = ([latex, x0, y0, x1, y1]: [string, number, number, number, number]): MathSymbol => ({ latex, box: { x0, y0, x1, y1 }, confidence: 0.95 });

describe('fractions that tell no size of their own', () => {
  it('reads parentheses around fractions in a radicand on the fractions’ line, not as their subscripts', () => {
    // emulateapj's `d_1=\frac{3}{4}\sqrt{\left(\frac{x_1}{R_{maj}}\right)^{2}+\left(\frac{y_1}{R_{min}}\right)^{2}}`
    // as its 200 dpi scan gives it (boxes in pixels). Inside the radical only the superscript 2s
    // knew their size: the fractions borrowed it, and against that em the `)` after the first one,
    // centred 4 px below its bar (the denominator is deep), stood low enough to become its
    // subscript: `\frac{x_{1}}{R_{maj}}_{)+(}^{2}`.
    const symbols = (
      [
        ['d', 4, 22, 18, 42],
        ['1', 20, 32, 27, 45],
        ['=', 39, 31, 58, 38],
        ['@rule', 70, 34, 84, 35],
        ['3', 71, 4, 83, 24],
        ['4', 71, 41, 83, 60],
        ['\\sqrt', 90, 4, 380, 54],
        ['(', 119, 18, 127, 51],
        ['@rule', 140, 30, 194, 31],
        ['R', 141, 33, 156, 48],
        ['x', 156, 17, 167, 26],
        ['m', 157, 44, 172, 50],
        ['1', 170, 20, 176, 29],
        ['a', 174, 44, 183, 50],
        ['j', 184, 41, 191, 53],
        [')', 206, 18, 214, 51],
        ['2', 219, 10, 228, 23],
        ['+', 239, 25, 257, 43],
        ['(', 268, 18, 276, 51],
        ['@rule', 289, 32, 344, 33],
        ['R', 290, 34, 306, 49],
        ['y', 306, 17, 316, 30],
        ['m', 307, 45, 322, 51],
        ['1', 318, 20, 324, 29],
        ['i', 324, 42, 329, 51],
        ['n', 331, 45, 341, 51],
        [')', 356, 18, 364, 51],
        ['2', 369, 12, 378, 25],
      ] as Array<[string, number, number, number, number]>
    ).map(glyph);
    expect(parseLayout(symbols).latex).toBe('d_{1}=\\frac{3}{4}\\sqrt{(\\frac{x_{1}}{R_{maj}})^{2}+(\\frac{y_{1}}{R_{\\min}})^{2}}');
  });
});
