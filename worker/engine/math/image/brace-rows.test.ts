import { describe, expect, it } from 'vitest';
import type { Box, MathSymbol } from '../types.js';
import { braceBeforeRows } from './brace-rows.js';

const symbol = (latex: string, box: Box, confidence = 0.9, alternatives: MathSymbol['alternatives'] = []): MathSymbol => ({
  latex,
  box,
  confidence,
  alternatives,
});
const glyph = (latex: string, x: number, y: number) => symbol(latex, { x0: x, y0: y, x1: x + 20, y1: y + 25 });
/** A tall stroke read as | with \{ among its runners-up, at x 0–20 over y 0–130. */
const tall = (latex = '|') =>
  symbol(latex, { x0: 0, y0: 0, x1: 20, y1: 130 }, 0.25, [
    { latex: '\\{', confidence: 0.09 },
    { latex: '!', confidence: 0.1 },
  ]);
const rows = [glyph('x', 40, 15), glyph('2', 62, 5), glyph('-', 40, 95), glyph('x', 62, 90)];

describe('braceBeforeRows', () => {
  it('reads a tall stroke followed by two rows, with no closing partner, as the brace of cases', () => {
    const [brace] = braceBeforeRows([tall(), ...rows]);
    expect(brace!.latex).toBe('\\{');
    // The rows decide which open delimiter it is: | and \{ together, not ! as well.
    expect(brace!.confidence).toBeCloseTo(0.34);
  });

  it('keeps it as read before one row, or with a closing partner of its size (|a| over two rows)', () => {
    expect(braceBeforeRows([tall(), glyph('x', 40, 50), glyph('y', 62, 50)])[0]!.latex).toBe('|');
    const closer = symbol('|', { x0: 100, y0: 0, x1: 110, y1: 128 });
    expect(braceBeforeRows([tall(), ...rows, closer])[0]!.latex).toBe('|');
  });

  it('needs \\{ among its readings and a height of two rows', () => {
    const noBrace = symbol('|', { x0: 0, y0: 0, x1: 20, y1: 130 }, 0.9, [{ latex: '1', confidence: 0.05 }]);
    expect(braceBeforeRows([noBrace, ...rows])[0]).toEqual(noBrace);
    const short = symbol('|', { x0: 0, y0: 0, x1: 20, y1: 30 }, 0.3, [{ latex: '\\{', confidence: 0.2 }]);
    expect(braceBeforeRows([short, ...rows])[0]).toEqual(short);
  });
});
