import { describe, expect, it } from 'vitest';
import { inkBands } from './bands.js';
import { joinStacks, rulesIn } from './stacks.js';

/** A mask with ink rectangles [x0, y0, x1, y1). */
function mask(width: number, height: number, rects: Array<[number, number, number, number]>) {
  const data = new Uint8Array(width * height);
  for (const [x0, y0, x1, y1] of rects) for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data[y * width + x] = 1;
  return { data, width, height };
}

const rows = (m: ReturnType<typeof mask>) => inkBands(m).map((b) => [b.y0, b.y1]);

describe('joinStacks', () => {
  it('reads a lone fraction (numerator, bar, denominator a few blank rows apart) as one band', () => {
    // \frac{3}{4}: a 12 px digit, 5 blank rows, a 10 px bar, 5 blank rows, a 12 px digit.
    expect(
      rows(
        mask(60, 60, [
          [21, 10, 29, 22],
          [20, 27, 30, 28],
          [21, 33, 29, 45],
        ]),
      ),
    ).toEqual([[10, 45]]);
  });

  it('joins the numerator and denominator of a fraction beside other symbols (x = …)', () => {
    // x = on the bar's rows, a wide numerator above the bar, a short denominator below it.
    const m = mask(240, 80, [
      [60, 5, 200, 25],
      [10, 27, 20, 37],
      [30, 30, 42, 33],
      [58, 31, 202, 32],
      [120, 38, 140, 50],
    ]);
    expect(rows(m)).toEqual([[5, 50]]);
  });

  it('joins a short denominator standing further off the bar than its own height (a_c = v^2 over r)', () => {
    // a_c = on the bar's rows; v² (17 px) above, r (9 px, x-height) 10 blank rows below the bar.
    const m = mask(90, 60, [
      [6, 28, 30, 41],
      [32, 29, 46, 35],
      [56, 6, 74, 23],
      [55, 32, 76, 33],
      [61, 43, 70, 52],
    ]);
    expect(rows(m)).toEqual([[6, 52]]);
  });

  it('joins two fractions side by side: numerators on one row, bars and denominators on the next', () => {
    const m = mask(240, 80, [
      [20, 5, 40, 20],
      [90, 5, 120, 20],
      [18, 24, 42, 25],
      [88, 24, 122, 25],
      [50, 22, 62, 26],
      [20, 28, 40, 42],
      [90, 28, 120, 42],
    ]);
    expect(rows(m)).toEqual([[5, 42]]);
  });

  it('leaves two lines of equations (no bar between them) apart', () => {
    expect(
      rows(
        mask(200, 80, [
          [20, 5, 100, 22],
          [20, 35, 114, 58],
        ]),
      ),
    ).toEqual([
      [5, 22],
      [35, 58],
    ]);
  });

  it('does not take a table rule with cells a column gap apart for a bar', () => {
    // Row of two cells, a rule across the table, another row of two cells.
    const m = mask(200, 80, [
      [20, 5, 40, 20],
      [120, 5, 150, 20],
      [10, 26, 160, 27],
      [20, 33, 45, 48],
      [120, 33, 155, 48],
    ]);
    expect(rows(m)).toEqual([
      [5, 20],
      [26, 27],
      [33, 48],
    ]);
  });

  it('does not take the stroke of an equals sign for a bar', () => {
    // A short symbol over the upper stroke of '=', the lower stroke 3 px below it.
    const m = mask(100, 60, [
      [30, 5, 40, 15],
      [28, 20, 42, 21],
      [28, 24, 42, 25],
    ]);
    expect(
      joinStacks(m, [
        { y0: 5, y1: 15, x0: 30, x1: 40 },
        { y0: 20, y1: 25, x0: 28, x1: 42 },
      ]),
    ).toHaveLength(2);
  });
});

describe('joinStacks and the strokes of glyphs', () => {
  // A line of text whose letter stands on an 8 px foot serif (touching its stem), over a letter of
  // the next line that fits within the serif's columns: laid out as numerator, bar, denominator,
  // but the serif is part of its glyph, not a rule standing apart.
  const serifOver = (gap: number) =>
    mask(120, 80, [
      [18, 10, 21, 28 - gap],
      [16, 28, 24, 29],
      [40, 14, 100, 29],
      [16, 44, 24, 58],
      [40, 44, 100, 58],
    ]);

  it('does not take a serif for a fraction bar: the two lines stay two bands', () => {
    expect(rows(serifOver(0))).toEqual([
      [10, 29],
      [44, 58],
    ]);
  });

  it('still takes the same rule standing a row clear of the ink above it for a bar', () => {
    expect(rows(serifOver(1))).toEqual([[10, 58]]);
  });
});

describe('rulesIn', () => {
  it('finds thin horizontal runs and ignores thick blocks', () => {
    const m = mask(100, 40, [
      [10, 5, 60, 7],
      [10, 15, 30, 35],
    ]);
    expect(rulesIn(m, { y0: 0, y1: 40, x0: 0, x1: 100 })).toEqual([{ y0: 5, y1: 7, x0: 10, x1: 60 }]);
  });
});
