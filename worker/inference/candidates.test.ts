import { describe, expect, it } from 'vitest';
import type { MathResult, MathSymbol } from '../engine/math/types.js';
import { nBestFormulas } from './candidates.js';

const box = { x0: 0, y0: 0, x1: 1, y1: 1 };
const sym = (latex: string, confidence: number, alternatives: Array<[string, number]> = []): MathSymbol => ({
  latex,
  confidence,
  box,
  alternatives: alternatives.map(([l, c]) => ({ latex: l, confidence: c })),
});
/** A stand-in parser: the labels in order, confidence their product (what parseLayout computes). */
const parse = async (symbols: MathSymbol[]): Promise<MathResult> => ({
  latex: symbols.map((s) => s.latex).join(''),
  confidence: symbols.reduce((p, s) => p * s.confidence, 1),
  boxes: [],
});

describe('nBestFormulas', () => {
  it('lists the best distinct formulas by product probability, best first', async () => {
    const symbols = [
      sym('x', 0.9, [['\\chi', 0.08]]),
      sym('+', 0.99),
      sym('1', 0.6, [
        ['l', 0.35],
        ['I', 0.04],
      ]),
    ];
    const out = await nBestFormulas(symbols, 3, parse);
    expect(out.map((c) => c.latex)).toEqual(['x+1', 'x+l', '\\chi+1']);
    expect(out[0]!.confidence).toBeCloseTo(0.9 * 0.99 * 0.6, 9);
    expect(out[1]!.confidence).toBeCloseTo(0.9 * 0.99 * 0.35, 9);
  });

  it('skips choices that parse to a string already listed, and stops when choices run out', async () => {
    const dropsSecond = async (s: MathSymbol[]) => parse(s.slice(0, 1));
    const out = await nBestFormulas([sym('a', 0.9, [['o', 0.1]]), sym('b', 0.5, [['h', 0.5]])], 5, dropsSecond);
    expect(out.map((c) => c.latex)).toEqual(['a', 'o']);
  });
});
