import { describe, expect, it } from 'vitest';
import { RADICAL, type MathSymbol } from '../types.js';
import { preferCaseBySize } from './letter-case.js';

const glyph = (latex: string, x: number, y0: number, y1: number): MathSymbol => ({
  latex,
  box: { x0: x, y0, x1: x + 20, y1 },
  confidence: 0.6,
  alternatives: [{ latex: latex === latex.toLowerCase() ? latex.toUpperCase() : latex.toLowerCase(), confidence: 0.3 }],
});
const read = (symbols: MathSymbol[]) =>
  preferCaseBySize(symbols)
    .map((s) => s.latex)
    .join('');

describe('preferCaseBySize', () => {
  it('reads a letter drawn alike in both cases as small or capital by its height against a tall neighbour on its baseline', () => {
    expect(read([glyph('2', 0, 0, 40), glyph('V', 30, 18, 40)])).toBe('2v');
    expect(read([glyph('z', 0, 2, 40), glyph('+', 30, 10, 30), glyph('b', 60, 0, 40)])).toBe('Z+b');
  });

  it('weighs a full-height Z against the 2 a hand draws alike by how often maths writes each', () => {
    const zed = (confidence: number, two: number): MathSymbol => ({
      latex: 'Z',
      box: { x0: 0, y0: 0, x1: 20, y1: 40 },
      confidence,
      alternatives: [{ latex: '2', confidence: two }],
    });
    const one = glyph('1', 60, 0, 40);
    expect(read([zed(0.6, 0.3), glyph('+', 30, 10, 30), one])).toBe('2+1'); // 2 1,717 times to Z's 33
    expect(read([zed(0.97, 0.01), glyph('+', 30, 10, 30), one])).toBe('Z+1'); // a Z the classifier is sure of
  });

  it('keeps the label with no tall neighbour on its baseline, between the two sizes, or for other letters', () => {
    expect(read([glyph('V', 0, 18, 40)])).toBe('V');
    expect(read([glyph('h', 0, 0, 40), glyph('V', 25, -10, 5)])).toBe('hV'); // a raised script
    expect(read([glyph('2', 0, 0, 40), glyph('V', 30, 7, 40)])).toBe('2V'); // 0.83 of the digit: either
    expect(read([glyph('2', 0, 0, 40), glyph('K', 30, 18, 40)])).toBe('2K');
  });

  it('weighs a symbol with no letter or digit on its line by how often maths writes each look-alike', () => {
    expect(read([glyph('X', 0, 0, 40)])).toBe('x'); // x 976 times to X's 64
    expect(read([{ ...glyph('Z', 0, 0, 40), alternatives: [{ latex: '2', confidence: 0.2 }] }])).toBe('2');
    expect(read([{ latex: RADICAL, box: { x0: 0, y0: 0, x1: 60, y1: 60 }, confidence: 1 }, glyph('X', 20, 20, 60)])).toBe(`${RADICAL}x`); // alone under a radical
    // A neighbour on its line keeps the shape's own label: its size can be judged there.
    expect(read([glyph('a', 0, 10, 40), glyph('X', 30, 0, 40)])).toBe('aX');
  });

  it('gives the chosen twin the shape’s confidence', () => {
    const [x] = preferCaseBySize([glyph('X', 0, 0, 40)]);
    expect(x.confidence).toBeCloseTo(0.9, 6);
    expect(x.alternatives?.[0]).toEqual({ latex: 'X', confidence: 0.6 });
  });

  it('lists the twin the context set aside after the other shapes, so the read’s margin is over another shape', () => {
    const drawn = {
      ...glyph('x', 0, 0, 40),
      confidence: 0.5,
      alternatives: [
        { latex: 'X', confidence: 0.4 },
        { latex: 'K', confidence: 0.05 },
      ],
    };
    const [x] = preferCaseBySize([drawn]); // alone: x, with x and X together
    expect(x.confidence).toBeCloseTo(0.9, 6);
    expect(x.alternatives).toEqual([
      { latex: 'K', confidence: 0.05 },
      { latex: 'X', confidence: 0.4 },
    ]);
    const [, v] = preferCaseBySize([
      glyph('2', 0, 0, 40),
      {
        ...drawn,
        latex: 'V',
        box: { x0: 30, y0: 18, x1: 50, y1: 40 },
        alternatives: [
          { latex: 'v', confidence: 0.4 },
          { latex: 'y', confidence: 0.05 },
        ],
      },
    ]);
    expect(v.latex).toBe('v'); // small by size
    expect(v.alternatives?.map((a) => a.latex)).toEqual(['y', 'V']);
  });

  it('gives the shape’s confidence also when the context confirms the classifier’s label', () => {
    const [x] = preferCaseBySize([glyph('x', 0, 0, 40)]); // alone: x confirmed over X
    expect(x.latex).toBe('x');
    expect(x.confidence).toBeCloseTo(0.9, 6);
    const [, v] = preferCaseBySize([glyph('2', 0, 0, 40), glyph('v', 30, 18, 40)]); // small by size
    expect(v.latex).toBe('v');
    expect(v.confidence).toBeCloseTo(0.9, 6);
    const [, between] = preferCaseBySize([glyph('2', 0, 0, 40), glyph('v', 30, 7, 40)]); // either size: as read
    expect(between.confidence).toBe(0.6);
  });
});
