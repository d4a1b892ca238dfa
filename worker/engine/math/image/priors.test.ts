import { describe, expect, it } from 'vitest';
import { HANDWRITTEN_LOOKALIKES, PICTURE_LOOKALIKES } from '../lookalikes.js';
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

  it("weighs a hand's look-alikes by how often maths writes them: a round 0 read O, a cursive x read χ", () => {
    const zero = { latex: 'O', confidence: 0.52, alternatives: [{ latex: '0', confidence: 0.27 }] };
    expect(withPriors(zero, HANDWRITTEN_LOOKALIKES).latex).toBe('0');
    expect(withPriors(zero).latex).toBe('O'); // print's weights leave it: type draws the two apart
    expect(withPriors({ latex: '\\chi', confidence: 0.43, alternatives: [{ latex: 'x', confidence: 0.34 }] }, HANDWRITTEN_LOOKALIKES).latex).toBe('x');
    // A letter drawn clearly as a letter still wins.
    expect(withPriors({ latex: 'O', confidence: 0.97, alternatives: [{ latex: '0', confidence: 0.02 }] }, HANDWRITTEN_LOOKALIKES).latex).toBe('O');
  });

  it('reads the ink of an x written as two arcs, )(, as x in a picture, where \\propto is rare, and leaves pen strokes their own reading', () => {
    const arcs = { latex: '\\propto', confidence: 0.56, alternatives: [{ latex: 'x', confidence: 0.08 }] };
    expect(withPriors(arcs, PICTURE_LOOKALIKES).latex).toBe('x');
    expect(withPriors(arcs, HANDWRITTEN_LOOKALIKES)).toBe(arcs);
    // A picture's look-alikes include the pen's.
    expect(withPriors({ latex: '\\chi', confidence: 0.43, alternatives: [{ latex: 'x', confidence: 0.34 }] }, PICTURE_LOOKALIKES).latex).toBe('x');
  });
});
