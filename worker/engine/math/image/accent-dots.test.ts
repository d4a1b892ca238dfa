import { describe, expect, it } from 'vitest';
import type { MathSymbol } from '../types.js';
import { joinSemicolons } from './accent-dots.js';

const at = (latex: string, x0: number, y0: number, x1: number, y1: number): MathSymbol => ({ latex, box: { x0, y0, x1, y1 }, confidence: 0.9 });

describe('joinSemicolons', () => {
  it('reads a dot placed over a comma as one semicolon (pdflatex at 150 dpi leaves them apart)', () => {
    const symbols = [at('x', 130, 30, 140, 40), at('\\dot', 145, 30, 147, 32), at(',', 145, 37, 147, 43), at('\\theta', 150, 25, 160, 40)];
    const joined = joinSemicolons(symbols);
    expect(joined.map((s) => s.latex)).toEqual(['x', ';', '\\theta']);
    expect(joined[1].box).toEqual({ x0: 145, y0: 30, x1: 147, y1: 43 });
  });

  it('leaves a \\dot over a letter and a comma with nothing over it as they are', () => {
    const symbols = [at('\\dot', 12, 2, 14, 4), at('q', 10, 8, 18, 20), at(',', 20, 16, 22, 22)];
    expect(joinSemicolons(symbols).map((s) => s.latex)).toEqual(['\\dot', 'q', ',']);
  });
});
