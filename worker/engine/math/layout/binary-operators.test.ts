import { describe, expect, it } from 'vitest';
import type { MathSymbol } from '../types.js';
import { parseLayout } from './index.js';

const glyph = (latex: string, x0: number, x1: number, y0: number, y1: number): MathSymbol => ({ latex, box: { x0, y0, x1, y1 }, confidence: 0.9 });
const read = (...symbols: MathSymbol[]) => parseLayout(symbols).latex.replace(/\s+/g, '');

describe('parseBaseline: a binary operator between two full-size operands', () => {
  it('stands on the line though the base before it is read with a descender it does not draw', () => {
    // A hand's `f` stands on the baseline; maths italic f descends, so its baseline is read high and
    // the `+` after it looked lowered (boxes of a training writer's `\mu-f+7`).
    expect(read(glyph('f', 129, 178, 109, 199), glyph('+', 189, 256, 138, 205), glyph('7', 268, 304, 123, 198))).toBe('f+7');
  });

  it('keeps an operator in a script whose operand is script-size, or that has none', () => {
    expect(read(glyph('a', 0, 40, 20, 60), glyph('n', 44, 64, 50, 72), glyph('+', 66, 86, 50, 70), glyph('1', 88, 100, 44, 72))).toBe('a_{n+1}');
    expect(read(glyph('A', 0, 40, 0, 60), glyph('+', 44, 62, -10, 8))).toBe('A^{+}');
  });
});
