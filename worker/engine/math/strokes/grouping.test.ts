import { describe, expect, it } from 'vitest';
import type { Stroke } from '../types.js';
import { isRadicalStroke, isStraightBar, typicalSymbolHeight } from './geometry.js';
import { groupStrokes } from './grouping.js';
import { splitLines } from './lines.js';
import { at, bar, radical } from '../../../../test/support/pen-strokes.js';

const SIZE = 40;

/** Groups as `kind:strokeCount`, left to right. */
function groups(strokes: Stroke[]): string[] {
  const h = typicalSymbolHeight(strokes);
  return groupStrokes(strokes, h, 38 / h).groups.map((g) => `${g.kind}:${g.strokes.length}`);
}

const dot = (x: number, y: number): Stroke => ({ x: [x, x + 1], y: [y, y + 1] });

describe('groupStrokes', () => {
  it('joins crossing strokes (+, x) and stacked bars (=) into one glyph each', () => {
    expect(groups([...at('x', 0, 0, SIZE), ...at('+', 40, 0, SIZE), ...at('=', 80, 0, SIZE), ...at('1', 120, 0, SIZE)])).toEqual([
      'glyph:2',
      'glyph:2',
      'glyph:2',
      'glyph:2',
    ]);
  });

  it('gives a lone straight bar as RULE and keeps a fraction in three parts', () => {
    const fraction = [...at('a', 5, 0, SIZE), bar(0, 36, 46), ...at('b', 5, 52, SIZE)];
    expect(groups([...at('1', -50, 26, SIZE), bar(-28, -10, 46), ...fraction])).toEqual(['glyph:2', 'rule:1', 'rule:1', 'glyph:1', 'glyph:1']);
  });

  it('keeps a radical drawn in one stroke apart from the radicand under its vinculum', () => {
    const strokes = [radical(0, 0, 44, 70), ...at('x', 28, 4, SIZE)];
    const h = typicalSymbolHeight(strokes);
    const { groups: found } = groupStrokes(strokes, h, 38 / h);
    expect(found.map((g) => g.kind)).toEqual(['radical', 'glyph']);
    expect(found[0].box.x1).toBeGreaterThanOrEqual(70);
    expect(found[0].box.x0).toBeLessThanOrEqual(0);
  });

  it('joins the two bars of a hand-drawn = that are shifted and unequal, but not a bar crossing other ink', () => {
    const equals = [bar(50, 72, 14), bar(56, 76, 26)];
    expect(groups([...at('1', 0, 0, SIZE), ...equals, ...at('1', 90, 0, SIZE)])).toEqual(['glyph:2', 'glyph:2', 'glyph:2']);
    // A fraction bar above a T: the T's own bar crosses its stem, so the two bars are no `=`.
    const tee = [bar(52, 76, 60), { x: [64, 64], y: [60, 90] }];
    expect(groups([...at('1', 54, 0, SIZE), bar(48, 80, 48), ...tee])).toEqual(['rule:1', 'glyph:2', 'glyph:2']);
  });

  it('keeps nested fraction bars apart with the numerator between them', () => {
    const nested = [...at('1', 24, 0, 20), bar(8, 52, 26), ...at('2', 20, 31, 24), bar(0, 60, 60), ...at('1', 22, 66, SIZE)];
    expect(groups(nested)).toEqual(['rule:1', 'rule:1', 'glyph:1', 'glyph:2', 'glyph:2']);
  });

  it('finds radicals drawn as people draw them only over a radicand', () => {
    // A wide tick that starts with a flick at the top-left, and a vinculum ending in a serif.
    const sign = { x: [0, 6, 30, 48, 60, 110, 112], y: [0, 4, 30, 50, 2, 0, 8] };
    expect(isRadicalStroke([sign], SIZE)).toBe(true);
    // √ as a check mark, with no vinculum.
    const check = { x: [0, 8, 25, 80], y: [30, 25, 55, 0] };
    expect(isRadicalStroke([check], SIZE)).toBe(true);
    expect(groups([sign, ...at('1', 62, 10, SIZE)]).map((g) => g.split(':')[0])).toEqual(['radical', 'glyph']);
    // The same outline with nothing under it is a letter, not a radical.
    expect(groups([sign]).map((g) => g.split(':')[0])).toEqual(['glyph']);
  });

  it('joins pen dots to their symbols: i, the colon, ÷', () => {
    const i = [{ x: [3, 4, 4], y: [18, 16, 40] }, dot(3.5, 8)];
    const colon = [dot(30, 18), dot(30, 34)];
    const divide = [dot(67, 12), bar(55, 80, 25), dot(67, 38)];
    expect(groups([...at('1', -40, 0, SIZE), ...i, ...colon, ...divide])).toEqual(['glyph:2', 'glyph:2', 'glyph:2', 'glyph:3']);
  });
});

describe('stroke shapes', () => {
  it('tells a straight bar from a wave and an arrow', () => {
    expect(isStraightBar([bar(0, 40, 10)], 40)).toBe(true);
    const wave = { x: [0, 10, 20, 30, 40], y: [5, 0, 5, 10, 5] };
    expect(isStraightBar([wave], 40)).toBe(false);
    expect(isStraightBar([bar(0, 40, 10), { x: [32, 40, 32], y: [4, 10, 16] }], 40)).toBe(false);
  });

  it('tells a radical from Γ and 7', () => {
    expect(isRadicalStroke([radical(0, 0, 40, 80)], 40)).toBe(true);
    expect(isRadicalStroke([{ x: [0, 0, 30], y: [40, 0, 0] }], 40)).toBe(false);
    expect(isRadicalStroke([{ x: [0, 30, 10], y: [0, 0, 40] }], 40)).toBe(false);
  });
});

describe('splitLines', () => {
  it('splits expressions written a line apart, but not a fraction', () => {
    const fraction = [...at('a', 5, 0, SIZE), bar(0, 36, 46), ...at('b', 5, 52, SIZE)];
    expect(splitLines(fraction, SIZE)).toHaveLength(1);
    const second = at('x', 0, 140, SIZE);
    const lines = splitLines([...fraction, ...second], SIZE);
    expect(lines.map((l) => l.length)).toEqual([fraction.length, second.length]);
  });
});
