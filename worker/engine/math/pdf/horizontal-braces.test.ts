import { describe, expect, it } from 'vitest';
import { UNDERBRACE, type Box, type MathSymbol } from '../types.js';
import { BRACE_PIECES } from './cmex.js';
import { joinHorizontalBraces } from './horizontal-braces.js';

/**
 * newtx draws `\underbrace` from txexs's four pieces with a row of txexas macrons between them
 * instead of rules; the positions are those of asmeconf-template.pdf's brace (page 6).
 */
const symbol = (latex: string, x0: number, x1: number, y0: number, y1: number): MathSymbol => ({ latex, box: { x0, y0, x1, y1 }, confidence: 1 });
const fill = (from: number, count: number) => Array.from({ length: count }, (_, i) => symbol('\\bar', from + 1.44 * i, from + 1.44 * i + 2.09, 458.39, 459.29));

describe('joinHorizontalBraces', () => {
  it('joins newtx pieces and the macrons between them into one underbrace', () => {
    const symbols = [
      symbol(BRACE_PIECES.upLeft, 178.51, 184.81, 456.57, 459.29),
      ...fill(184.34, 10),
      symbol(BRACE_PIECES.downRight, 198.91, 205.21, 458.39, 461.11),
      symbol(BRACE_PIECES.downLeft, 205.11, 211.4, 458.39, 461.11),
      ...fill(210.93, 10),
      symbol(BRACE_PIECES.upRight, 225.51, 231.8, 456.57, 459.29),
      symbol('x', 190, 195, 448, 455),
    ];
    const { symbols: joined } = joinHorizontalBraces(symbols, []);
    expect(joined.map((s) => s.latex).sort()).toEqual([UNDERBRACE, 'x']);
    expect(joined.find((s) => s.latex === UNDERBRACE)?.box).toMatchObject({ x0: 178.51, x1: 231.8 });
  });

  it('leaves pieces without their other end, and rules elsewhere, as they are', () => {
    const rule: Box = { x0: 300, y0: 458.5, x1: 320, y1: 458.9 };
    const symbols = [symbol(BRACE_PIECES.upLeft, 178.51, 184.81, 456.57, 459.29), symbol(BRACE_PIECES.downRight, 198.91, 205.21, 458.39, 461.11)];
    const { symbols: out, rules } = joinHorizontalBraces(symbols, [rule]);
    expect(out).toEqual(symbols);
    expect(rules).toEqual([rule]);
  });
});
