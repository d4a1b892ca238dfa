import { describe, expect, it } from 'vitest';
import type { InkMask } from '../engine/math/image/binarise.js';
import { inkBands } from './bands.js';
import type { OcrLine } from '../engine/text/index.js';
import { columnBands, splitAtGutter } from './column-bands.js';

/**
 * A page of two columns of "lines" (solid bars of ink 12 pixels high), the right column's lines
 * set half a line lower than the left's, as a display in one column moves the lines after it: no
 * blank pixel row runs across the page, so the page's rows of ink are one band.
 */
const WIDTH = 420;
const GUTTER = [200, 215] as const;
const LINE = 12;

function page(bars: { x0: number; x1: number; y0: number }[]): InkMask {
  const height = 200;
  const data = new Uint8Array(WIDTH * height);
  for (const { x0, x1, y0 } of bars) for (let y = y0; y < y0 + LINE; y++) data.fill(1, y * WIDTH + x0, y * WIDTH + x1);
  return { data, width: WIDTH, height };
}

const left = [20, 40, 60, 80].map((y0) => ({ x0: 10, x1: GUTTER[0], y0 }));
const right = [28, 48, 68, 88].map((y0) => ({ x0: GUTTER[1], x1: 410, y0 }));
const box = (x: number, y: number, width: number) => ({ x, y, width, height: LINE });

describe('columnBands', () => {
  it("cuts rows of ink that run across a narrow gutter into each column's own rows", () => {
    const mask = page([...left, ...right]);
    expect(inkBands(mask)).toHaveLength(1);
    const bands = columnBands(mask, 207, [], LINE);
    expect(bands.map((b) => [b.x0, b.x1, b.y0, b.y1])).toEqual([
      ...left.map((l) => [l.x0, l.x1, l.y0, l.y0 + LINE]),
      ...right.map((r) => [r.x0, r.x1, r.y0, r.y0 + LINE]),
    ]);
  });

  it('keeps a band whole where ink or a text line crosses the gutter, and every band without a gutter', () => {
    const title = { x0: 10, x1: 410, y0: 150 };
    const mask = page([...left, ...right, title]);
    const bands = columnBands(mask, 207, [], LINE);
    expect(bands.at(-1)).toEqual({ x0: 10, x1: 410, y0: 150, y1: 150 + LINE });
    expect(bands).toHaveLength(9);
    // A title whose word space falls on the gutter: its text line crosses it.
    const spaced = page([...left, ...right, { x0: 10, x1: 201, y0: 150 }, { x0: 214, x1: 410, y0: 150 }]);
    expect(columnBands(spaced, 207, [box(10, 150, 400)], LINE).at(-1)).toEqual({ x0: 10, x1: 410, y0: 150, y1: 150 + LINE });
    expect(
      columnBands(spaced, 207, [], LINE)
        .slice(-2)
        .map((b) => [b.x0, b.x1]),
    ).toEqual([
      [10, 201],
      [214, 410],
    ]);
    expect(columnBands(mask, undefined, [], LINE)).toEqual(inkBands(mask));
  });

  it("cuts a tall band at a gutter that a mark crosses in one line's rows, and the mark is neither column's", () => {
    // A draft's overfull-box mark in the gutter beside the second left line.
    const mark = { x0: 202, x1: 208, y0: 40 };
    const bands = columnBands(page([...left, ...right, mark]), 207, [], LINE);
    expect(bands.map((b) => [b.x0, b.x1, b.y0, b.y1])).toEqual([
      ...left.map((l) => [l.x0, l.x1, l.y0, l.y0 + LINE]),
      ...right.map((r) => [r.x0, r.x1, r.y0, r.y0 + LINE]),
    ]);
    // Ink crossing in rows two lines apart (a table's rules, a figure) keeps the band whole.
    const rules = [40, 70].map((y0) => ({ x0: 10, x1: 410, y0 }));
    expect(columnBands(page([...left, ...right, ...rules]), 207, [], LINE)).toHaveLength(1);
  });

  it('cuts a band whose text line across the gutter shares its rows with a line of each column', () => {
    const mask = page([...left, ...right]);
    // The text model's detector ran the second left line and the first right line into one box.
    const merged = { ...box(10, 28, 400), height: 2 * LINE };
    const lines = [...left.map((l) => box(l.x0, l.y0, l.x1 - l.x0)), ...right.map((r) => box(r.x0, r.y0, r.x1 - r.x0)), merged];
    expect(columnBands(mask, 207, lines, LINE)).toHaveLength(8);
    // A left line reaching into the gutter (an overfull line's mark) beside a right line: the band is cut.
    expect(columnBands(mask, 207, [box(10, 40, 200), box(215, 42, 195)], LINE)).toHaveLength(8);
    // A title across the page stands alone in its rows: its band stays whole.
    expect(columnBands(mask, 207, [box(10, 20, 400)], LINE)).toHaveLength(1);
  });
});

describe('splitAtGutter', () => {
  const word = (text: string, x: number, width: number) => ({ text, confidence: 0.9, box: box(x, 50, width) });
  const ocrLine = (...words: ReturnType<typeof word>[]): OcrLine => {
    const x = Math.min(...words.map((w) => w.box.x));
    const x1 = Math.max(...words.map((w) => w.box.x + w.box.width));
    return { text: words.map((w) => w.text).join(' '), confidence: 0.9, box: box(x, 50, x1 - x), words };
  };
  const same = (b: ReturnType<typeof box>) => b;

  it("cuts a line the text model ran across the gutter into its two columns' lines", () => {
    const merged = ocrLine(word('this', 120, 40), word('section.', 170, 28), word('its', 216, 30), word('own', 252, 40));
    expect(splitAtGutter([merged], 207, same, same).map((l) => [l.text, l.box.x, l.box.width])).toEqual([
      ['this section.', 120, 78],
      ['its own', 216, 76],
    ]);
  });

  it("keeps a line with a word across the gutter, and narrows a line's box that only reaches across to its words", () => {
    const title = ocrLine(word('A', 150, 10), word('title', 180, 60), word('here', 250, 40));
    expect(splitAtGutter([title], 207, same, same)).toEqual([title]);
    const reaching = { ...ocrLine(word('own', 216, 40), word('words', 262, 50)), box: box(195, 50, 117) };
    expect(splitAtGutter([reaching], 207, same, same).map((l) => [l.text, l.box.x, l.box.width])).toEqual([['own words', 216, 96]]);
    expect(splitAtGutter([reaching], undefined, same, same)).toEqual([reaching]);
  });
});
