import { describe, expect, it } from 'vitest';
import type { MathSymbol } from '../types.js';
import { parseLayout } from './index.js';

/** Boxes in pixels as the image front end reads pdflatex's 150 dpi render (no baseline, no size). */
const at = (latex: string, x0: number, y0: number, x1: number, y1: number, style?: 'upright'): MathSymbol => ({
  latex,
  box: { x0, y0, x1, y1 },
  confidence: 0.95,
  ...(style ? { style } : {}),
});

describe('parseLayout: function names whose t is shorter than an ascender', () => {
  it('reads an upright t a n as \\tan: the t is one size with the an beside it', () => {
    const symbols = [
      at('y', 6, 10, 16, 24),
      at('=', 24, 11, 38, 17),
      at('t', 45, 6, 52, 19, 'upright'),
      at('a', 53, 9, 62, 20, 'upright'),
      at('n', 62, 10, 74, 19, 'upright'),
      at('x', 78, 10, 89, 20),
    ];
    expect(parseLayout(symbols).latex).toBe('y=\\tan x');
  });

  it('reads \\cot and \\det, with the t at the end of the name', () => {
    const cot = [at('c', 6, 9, 15, 19, 'upright'), at('o', 16, 9, 25, 20, 'upright'), at('t', 26, 6, 33, 19, 'upright'), at('v', 37, 10, 47, 19)];
    expect(parseLayout(cot).latex).toBe('\\cot v');
    const det = [at('d', 6, 5, 17, 20, 'upright'), at('e', 18, 10, 27, 20, 'upright'), at('t', 28, 7, 35, 20, 'upright'), at('A', 38, 5, 52, 20)];
    expect(parseLayout(det).latex).toBe('\\det A');
  });
});
