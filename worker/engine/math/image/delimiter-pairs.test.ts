import { describe, expect, it } from 'vitest';
import type { MathSymbol } from '../types.js';
import { pairDelimiters } from './delimiter-pairs.js';

const at = (latex: string, x: number, confidence: number, alternatives: MathSymbol['alternatives'] = []): MathSymbol => ({
  latex,
  confidence,
  alternatives,
  box: { x0: x, y0: 0, x1: x + 10, y1: 30 },
});

describe('pairDelimiters', () => {
  it('reads a closer as the kind its surer opener calls for, with both readings’ probability', () => {
    const read = pairDelimiters([at('(', 0, 0.87), at('x', 12, 0.9), at('\\rangle', 24, 0.53, [{ latex: ')', confidence: 0.44 }])]);
    expect(read.map((s) => s.latex)).toEqual(['(', 'x', ')']);
    expect(read[2]!.confidence).toBeCloseTo(0.97);
    expect(read[2]!.alternatives![0]).toEqual({ latex: '\\rangle', confidence: 0.53 });
  });

  it('reads an opener by its surer closer, pairing innermost first', () => {
    const read = pairDelimiters([at('\\langle', 0, 0.5, [{ latex: '(', confidence: 0.4 }]), at('[', 12, 0.9), at(']', 24, 0.9), at(')', 36, 0.8)]);
    expect(read.map((s) => s.latex)).toEqual(['(', '[', ']', ')']);
  });

  it('keeps what has no partner, a matching pair, or no matching reading', () => {
    const lone = [at('\\rangle', 0, 0.5, [{ latex: ')', confidence: 0.4 }])];
    expect(pairDelimiters(lone)).toEqual(lone);
    const angle = [at('\\langle', 0, 0.6), at('\\rangle', 20, 0.5, [{ latex: ')', confidence: 0.4 }])];
    expect(pairDelimiters(angle)).toEqual(angle);
    // A 3 misread as \} has no ) among its readings: the ( stays, and so does the misread.
    const misread = [at('(', 0, 0.9), at('\\}', 20, 0.5, [{ latex: '3', confidence: 0.4 }])];
    expect(pairDelimiters(misread)).toEqual(misread);
  });
});
