import { describe, expect, it } from 'vitest';
import type { MathSymbol } from '../types.js';
import { preferOperators } from './operators.js';

const at = (latex: string, x: number, alternatives: MathSymbol['alternatives'] = []): MathSymbol => ({
  latex,
  box: { x0: x, y0: 0, x1: x + 20, y1: 30 },
  confidence: 0.8,
  alternatives,
});
const tee = (x: number, plus = 0.15) => at('t', x, [{ latex: '+', confidence: plus }]);
const read = (symbols: MathSymbol[]) =>
  preferOperators(symbols)
    .map((s) => s.latex)
    .join('');

describe('preferOperators', () => {
  it('reads a t between two operands as +', () => {
    expect(read([at('4', 0), tee(30), at('2', 60)])).toBe('4+2');
    expect(read([at('u', 0), tee(30), at('(', 60)])).toBe('u+(');
  });

  it('keeps a t beside an operator, at the end of its line, or without + among its alternatives', () => {
    expect(read([at('1', 0), at('+', 30), tee(60)])).toBe('1+t');
    expect(read([tee(0), at('-', 30), at('2', 60)])).toBe('t-2');
    expect(read([at('a', 0), tee(30, 0.01), at('b', 60)])).toBe('atb');
  });

  it('reads a lone | as 1, but keeps the bars of an absolute value', () => {
    const bar = (x: number) => at('|', x, [{ latex: '1', confidence: 0.3 }]);
    expect(read([at('x', 0), at('+', 30), bar(60)])).toBe('x+1');
    expect(read([bar(0), at('x', 30), bar(60)])).toBe('|x|');
  });
});
