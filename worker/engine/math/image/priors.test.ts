import { describe, expect, it } from 'vitest';
import { withPriors } from './priors.js';

describe('withPriors', () => {
  it('lets a v the classifier reads 0.37 beat an upsilon it reads 0.57: printed maths rarely writes upsilon', () => {
    const label = withPriors({
      latex: '\\upsilon',
      confidence: 0.57,
      alternatives: [
        { latex: 'v', confidence: 0.37 },
        { latex: '\\nu', confidence: 0.01 },
      ],
    });
    expect(label.latex).toBe('v');
    expect(label.alternatives.map((a) => a.latex)).toEqual(['\\upsilon', '\\nu']);
    // The listed readings keep their total mass.
    expect(label.confidence + label.alternatives.reduce((sum, a) => sum + a.confidence, 0)).toBeCloseTo(0.95, 6);
  });

  it('keeps an upsilon read surely, and leaves labels without a rare look-alike as they are', () => {
    expect(withPriors({ latex: '\\upsilon', confidence: 0.95, alternatives: [{ latex: 'v', confidence: 0.03 }] }).latex).toBe('\\upsilon');
    const plain = { latex: 'x', confidence: 0.6, alternatives: [{ latex: 'X', confidence: 0.3 }] };
    expect(withPriors(plain)).toBe(plain);
  });
});
