import { describe, expect, it } from 'vitest';
import { glyphHeight, specksOf, withFullStops, withoutSpecks } from './specks.js';

describe('glyphHeight', () => {
  const blob = (height: number, area: number) => ({ height, area });
  it('is the median height of blobs of three rows and nine pixels or more: specks and one large frame do not move it', () => {
    expect(glyphHeight([blob(1, 1), blob(1, 1), blob(2, 2), blob(14, 40), blob(14, 38), blob(10, 30), blob(18, 50), blob(300, 5000)])).toBe(14);
  });
  it('leaves out sparse specks three rows tall, which outnumber the glyphs of a noisy image of one formula', () => {
    const specks = Array.from({ length: 20 }, () => blob(3, 3));
    expect(glyphHeight([...specks, blob(12, 40), blob(14, 45), blob(9, 30)])).toBe(12);
  });
  it('is 0 for a page of specks alone', () => {
    expect(glyphHeight([blob(1, 1), blob(2, 3), blob(1, 1)])).toBe(0);
  });
});

/** A mask with ink rectangles [x0, y0, x1, y1). */
function mask(width: number, height: number, rects: Array<[number, number, number, number]>) {
  const data = new Uint8Array(width * height);
  for (const [x0, y0, x1, y1] of rects) for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data[y * width + x] = 1;
  return { data, width, height };
}

describe('withoutSpecks', () => {
  it('drops a dot standing clear of the glyphs and keeps one of the same size beside a glyph', () => {
    // Five 14 px glyphs; a 2×2 dot 2 px above the first (an i's dot, a \cdot at 150 dpi); a 2×2 speck 20 px off any glyph.
    const glyphs = Array.from({ length: 5 }, (_, k): [number, number, number, number] => [10 + 12 * k, 20, 18 + 12 * k, 34]);
    const m = withoutSpecks(mask(120, 60, [...glyphs, [12, 16, 14, 18], [100, 50, 102, 52]]));
    const at = (x: number, y: number) => m.data[y * m.width + x];
    expect([at(12, 16), at(100, 50), at(10, 20)]).toEqual([1, 0, 1]);
  });

  it('leaves a mask without glyphs as it is', () => {
    const mask = { data: Uint8Array.from([1, 0, 0, 0, 0, 0, 0, 0, 1]), width: 3, height: 3 };
    expect(withoutSpecks(mask)).toBe(mask);
  });
});

describe('withFullStops', () => {
  // Glyphs 14 px tall on rows 20–34: a row of ink from x 10 to 70.
  const glyphs = Array.from({ length: 5 }, (_, k): [number, number, number, number] => [10 + 12 * k, 20, 18 + 12 * k, 34]);
  const bandOf = (rects: Array<[number, number, number, number]>) => {
    const { specks, glyph } = specksOf(mask(160, 60, [...glyphs, ...rects]));
    return withFullStops([{ y0: 20, y1: 34, x0: 10, x1: 70 }], specks, glyph)[0];
  };

  it('reaches over a full stop on the baseline a quad after the row (`x^{2}.`, `\\quad.`)', () => {
    expect(bandOf([[90, 31, 92, 33]])).toMatchObject({ x0: 10, x1: 92 });
  });
  it('leaves dust above the baseline, far after the row, or in the blank rows under it', () => {
    expect(bandOf([[80, 21, 82, 23]]).x1).toBe(70);
    expect(bandOf([[120, 31, 122, 33]]).x1).toBe(70);
    expect(bandOf([[80, 40, 82, 42]]).x1).toBe(70);
  });
});
