import { describe, expect, it } from 'vitest';
import { RADICAL, type MathSymbol } from '../types.js';
import { parseLayout } from './index.js';

const glyph = (latex: string, x0: number, y0: number, x1: number, y1: number): MathSymbol => ({ latex, box: { x0, y0, x1, y1 }, confidence: 0.99 });

describe('radicals drawn by hand', () => {
  // A sign 60 high whose tick bottoms out at x 20: the `a` written tucked into it has its centre
  // left of where a typeset hook ends (0.6 of the sign's height), but reaches past the tick.
  const sign: MathSymbol = { latex: RADICAL, box: { x0: 0, y0: 0, x1: 130, y1: 60 }, confidence: 1 };
  const radicand = [glyph('a', 14, 26, 44, 56), glyph('+', 52, 22, 82, 52), glyph('b', 90, 10, 118, 56)];

  it('takes the first symbol into the radicand when the front end says where the tick is', () => {
    expect(parseLayout([{ ...sign, hookEnd: 20 }, ...radicand]).latex).toBe('\\sqrt{a+b}');
  });

  it('takes a narrow parenthesis tucked wholly left of the tick into the radicand', () => {
    const parenthesised = [glyph('(', 10, 8, 18, 58), glyph('a', 24, 26, 50, 56), glyph(')', 56, 8, 64, 58)];
    expect(parseLayout([{ ...sign, box: { ...sign.box, x1: 80 }, hookEnd: 20 }, ...parenthesised]).latex).toBe('\\sqrt{(a)}');
  });

  it('keeps the typeset rule for a sign without that knowledge', () => {
    expect(parseLayout([sign, ...radicand]).latex).not.toBe('\\sqrt{a+b}');
  });
});
