import { describe, expect, it } from 'vitest';
import { RULE, type MathSymbol } from '../types.js';
import { preferBaselineTwins, preferOperators } from './operators.js';

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
    expect(read([at('R', 0), tee(30), at('\\sqrt', 60)])).toBe('R+\\sqrt');
  });

  it('reads a cross with no operand on a side as the x it may be, then the t after it as +', () => {
    const cross = (x: number) => at('\\times', x, [{ latex: 'x', confidence: 0.05 }]);
    expect(read([cross(0), tee(30), at('1', 60)])).toBe('x+1'); // \times t1: nothing before the cross
    expect(read([at('(', 0), cross(30), at(')', 60)])).toBe('(x)');
    expect(read([at('3', 0), cross(30), at('4', 60)])).toBe('3\\times4'); // between operands: a times sign
    expect(read([at('\\times', 0), tee(30), at('1', 60)])).toBe('\\timest1'); // no x among its readings
    expect(read([cross(0)])).toBe('\\times'); // alone: no line to judge by
  });

  it('reads a t between an operand and a fraction as +, but not one before a minus sign', () => {
    const bar = { latex: RULE, box: { x0: 60, y0: 14, x1: 100, y1: 16 }, confidence: 1 };
    const over = { ...at('a', 70), box: { x0: 70, y0: -20, x1: 90, y1: 10 } };
    const under = { ...at('b', 70), box: { x0: 70, y0: 20, x1: 90, y1: 50 } };
    expect(read([at('4', 0), tee(30), bar, over, under])).toBe(`4+${RULE}ab`);
    expect(read([at('4', 0), tee(30), bar])).toBe(`4t${RULE}`);
  });

  it('keeps a t beside an operator, at the end of its line, or without + among its alternatives', () => {
    expect(read([at('1', 0), at('+', 30), tee(60)])).toBe('1+t');
    expect(read([tee(0), at('-', 30), at('2', 60)])).toBe('t-2');
    expect(read([at('a', 0), at('t', 30, [{ latex: 'f', confidence: 0.1 }]), at('b', 60)])).toBe('atb');
  });

  it('reads a t between operands as + however unlikely the classifier finds +, with the shape’s confidence', () => {
    const [, plus] = preferOperators([at('a', 0), tee(30, 0.01), at('b', 60)]);
    expect(plus.latex).toBe('+');
    expect(plus.confidence).toBeCloseTo(0.81);
  });

  it('reads a lone | as 1, but keeps the bars of an absolute value', () => {
    const bar = (x: number) => at('|', x, [{ latex: '1', confidence: 0.3 }]);
    expect(read([at('x', 0), at('+', 30), bar(60)])).toBe('x+1');
    expect(read([bar(0), at('x', 30), bar(60)])).toBe('|x|');
    // A single stroke is the shape of both: however little the classifier gives `1`, an unpaired bar is one.
    expect(read([at('x', 0), at('+', 30), at('|', 60, [{ latex: '1', confidence: 0.01 }])])).toBe('x+1');
  });
});

describe('preferOperators: marks drawn like a 1', () => {
  const one = (latex: string, x: number, y0 = 0, y1 = 30) => ({ ...at(latex, x, [{ latex: '1', confidence: 0.02 }]), box: { x0: x, y0, x1: x + 10, y1 } });

  it('reads a / with no operand on a side as 1, and keeps the / of a/b', () => {
    expect(read([at('x', 0), at('+', 30), one('/', 60)])).toBe('x+1');
    expect(read([one('/', 0), at('-', 30), at('x', 60)])).toBe('1-x');
    expect(read([at('a', 0), one('/', 30), at('b', 60)])).toBe('a/b');
  });

  it('reads a full-size prime or comma on the line as 1, and keeps a raised prime and a low comma', () => {
    expect(read([at('x', 0), at('+', 30), one('\\prime', 60)])).toBe('x+1');
    expect(read([at('x', 0), at('-', 30), one(',', 60, 2, 36)])).toBe('x-1');
    expect(read([at('f', 0), one('\\prime', 22, -4, 10), at('(', 40)])).toBe('f\\prime(');
    expect(read([at('a', 0), one(',', 22, 22, 38), at('b', 40)])).toBe('a,b');
  });

  it('lets a 1 read from a / give the t before it its operand: x+1', () => {
    expect(read([at('x', 0), tee(30), one('/', 60)])).toBe('x+1');
  });
});

describe('preferOperators: brackets pair', () => {
  it('reads the likeliest look-alike of ( before an unopened ) as (, and of ) after an unclosed ( as )', () => {
    expect(read([at('C', 0, [{ latex: '(', confidence: 0.2 }]), at('a', 30), at(')', 60)])).toBe('(a)');
    expect(read([at('(', 0), at('a', 30), at('J', 60, [{ latex: ')', confidence: 0.1 }])])).toBe('(a)');
  });

  it('reads an unopened ) with nothing like a ( before it as 1 when 1 is among its alternatives', () => {
    expect(read([at('x', 0), at('+', 30), at(')', 60, [{ latex: '1', confidence: 0.1 }])])).toBe('x+1');
  });

  it('keeps brackets that pair, and a C that no bracket lacks', () => {
    expect(read([at('(', 0), at('C', 30, [{ latex: '(', confidence: 0.4 }]), at(')', 60)])).toBe('(C)');
    expect(read([at('C', 0, [{ latex: '(', confidence: 0.4 }]), at('+', 30), at('a', 60)])).toBe('C+a');
  });
});

describe('preferBaselineTwins', () => {
  const glyph = (latex: string, x: number, y0: number, y1: number, alternatives: MathSymbol['alternatives'] = []): MathSymbol => ({
    latex,
    box: { x0: x, y0, x1: x + 20, y1 },
    confidence: 0.8,
    alternatives,
  });
  const chi = (x: number, y0: number, y1: number, twin = 0.05) => glyph('\\chi', x, y0, y1, [{ latex: 'X', confidence: twin }]);
  const read = (symbols: MathSymbol[]) =>
    preferBaselineTwins(symbols)
      .map((s) => s.latex)
      .join(' ');

  it("reads a χ whose foot sits on its neighbour's baseline as x, or X when it is as tall", () => {
    expect(read([chi(0, 15, 40), glyph('2', 30, 0, 40)])).toBe('x 2');
    expect(read([glyph('a', 0, 15, 40), glyph('+', 30, 10, 30), chi(60, 0, 41)])).toBe('a + X');
  });

  it('reads a χ with no baseline to judge by (alone, or with only a raised script) as the commoner small x', () => {
    expect(read([chi(0, 15, 40)])).toBe('x');
    expect(read([chi(0, 15, 40), glyph('2', 25, 0, 18)])).toBe('x 2');
  });

  it('keeps a χ that descends below the baseline, or has no x-like alternative', () => {
    expect(read([glyph('a', 0, 15, 40), chi(30, 20, 52)])).toBe('a \\chi');
    expect(read([chi(0, 15, 40, 0.01), glyph('2', 30, 0, 40)])).toBe('\\chi 2');
    expect(read([chi(0, 15, 40, 0.01)])).toBe('\\chi');
  });

  it("gives an x read as x, with χ among its alternatives, the shape's confidence as when it is read χ", () => {
    const x = (x0: number, y0: number, y1: number) =>
      glyph('x', x0, y0, y1, [
        { latex: '\\chi', confidence: 0.1 },
        { latex: 'X', confidence: 0.05 },
      ]);
    const confidence = (symbols: MathSymbol[]) => preferBaselineTwins(symbols)[0].confidence;
    expect(confidence([x(0, 15, 40)])).toBeCloseTo(0.95);
    expect(confidence([x(0, 15, 40), glyph('2', 30, 0, 40)])).toBeCloseTo(0.95);
    // It descends (a χ), or is a capital's height (X): its own probability only.
    expect(confidence([x(30, 20, 52), glyph('a', 0, 15, 40)])).toBeCloseTo(0.8);
    expect(confidence([x(60, 0, 41), glyph('a', 0, 15, 40)])).toBeCloseTo(0.8);
    expect(confidence([glyph('x', 0, 15, 40, [{ latex: 'X', confidence: 0.1 }])])).toBeCloseTo(0.8);
  });
});
