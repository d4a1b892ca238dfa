import { describe, expect, it } from 'vitest';
import { inkBands, joinScripts } from './bands.js';

/** A mask with ink rectangles [x0, y0, x1, y1). */
function mask(width: number, height: number, rects: Array<[number, number, number, number]>) {
  const data = new Uint8Array(width * height);
  for (const [x0, y0, x1, y1] of rects) for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data[y * width + x] = 1;
  return { data, width, height };
}

describe('inkBands', () => {
  it('finds one band per line of text: equal heights a line gap apart are never joined', () => {
    // Three 20 px lines, 10 px apart (a tight paragraph), one of them x-height only (12 px).
    const bands = inkBands(
      mask(200, 100, [
        [5, 5, 190, 25],
        [5, 39, 150, 51],
        [5, 65, 180, 85],
      ]),
    );
    expect(bands.map((b) => [b.y0, b.y1])).toEqual([
      [5, 25],
      [39, 51],
      [65, 85],
    ]);
    expect(bands[1]).toMatchObject({ x0: 5, x1: 150 });
  });

  it('joins a limit under a tall operator and a bar-separated fraction part to their row', () => {
    // A 40 px sum sign with a 10 px limit 4 px below it; then, lower, a lone fraction: numerator, bar, denominator.
    const bands = inkBands(
      mask(200, 200, [
        [10, 10, 40, 50],
        [12, 54, 38, 64],
        [50, 120, 70, 135],
        [45, 138, 75, 140],
        [50, 143, 70, 158],
      ]),
    );
    expect(bands.map((b) => [b.y0, b.y1])).toEqual([
      [10, 64],
      [120, 158],
    ]);
  });

  it('returns nothing for a blank mask', () => {
    expect(inkBands(mask(10, 10, []))).toEqual([]);
  });
});

describe('inkBands on a scan with specks', () => {
  // Three lines of 14 px letters, 16 px apart; a letter every 12 px.
  const letters = (y: number): Array<[number, number, number, number]> => Array.from({ length: 16 }, (_, k) => [5 + 12 * k, y, 13 + 12 * k, y + 14]);
  const page = [...letters(10), ...letters(40), ...letters(70)];

  it('finds one band per line though dust leaves ink in every pixel row', () => {
    // A one-pixel speck in every row, beside the text, no two touching (as sensor noise and dust binarise).
    const specks = Array.from({ length: 100 }, (_, y): [number, number, number, number] => [220 + ((y * 7) % 70), y, 221 + ((y * 7) % 70), y + 1]);
    const bands = inkBands(mask(300, 100, [...page, ...specks]));
    expect(bands.map((b) => [b.y0, b.y1, b.x0, b.x1])).toEqual([
      [10, 24, 5, 193],
      [40, 54, 5, 193],
      [70, 84, 5, 193],
    ]);
  });

  it('keeps a dot of a glyph as ink: a dot accent above a line stays in its band', () => {
    // A 3×3 dot 3 px above the middle line (a speck is a pixel or two; a dot a fifth of the glyph height across).
    const bands = inkBands(mask(300, 100, [...page, [30, 34, 33, 37]]));
    expect(bands.map((b) => [b.y0, b.y1])).toEqual([
      [10, 24],
      [34, 54],
      [70, 84],
    ]);
  });
});

describe('joinScripts', () => {
  it('gives a short run close to both neighbours to the nearer: an accent to the row under it', () => {
    // Two 57 px rows 17 px apart; between them a 6 px arrow 10 px under the first row and 1 px over the second (a \\vec in its numerator).
    const bands = joinScripts([
      { y0: 0, y1: 57, x0: 0, x1: 600 },
      { y0: 67, y1: 73, x0: 560, x1: 575 },
      { y0: 74, y1: 132, x0: 0, x1: 610 },
    ]);
    expect(bands.map((b) => [b.y0, b.y1])).toEqual([
      [0, 57],
      [67, 132],
    ]);
  });

  it('leaves a short band alone when the gap is wide', () => {
    const bands = [
      { y0: 0, y1: 40, x0: 0, x1: 10 },
      { y0: 60, y1: 70, x0: 0, x1: 10 },
    ];
    expect(joinScripts(bands)).toEqual(bands);
  });
});

describe('inkBands on a display formula between lines of prose', () => {
  it('does not take a full-width text line as a script of the taller formula row', () => {
    // Prose (24 px, full width), 20 px gap, a 50 px formula row in the middle columns, 20 px gap, prose.
    const bands = inkBands(
      mask(600, 200, [
        [20, 10, 580, 34],
        [300, 54, 500, 104],
        [20, 124, 560, 148],
      ]),
    );
    expect(bands.map((b) => [b.y0, b.y1])).toEqual([
      [10, 34],
      [54, 104],
      [124, 148],
    ]);
  });
});

describe('inkBands on a page of text under a tall row', () => {
  // Five 28 px lines of prose, 5 px apart (a 200 dpi page), starting `top`.
  const paragraph = (top: number): Array<[number, number, number, number]> => [0, 1, 2, 3, 4].map((k) => [20, top + 33 * k, 580, top + 33 * k + 28]);

  it('keeps each line of a paragraph its own band under a full-width fraction', () => {
    // Numerator and denominator of text height around a full-width bar: a 62 px stack (stacks.ts).
    const bands = inkBands(mask(600, 300, [[20, 10, 580, 38], [20, 42, 580, 44], [100, 48, 500, 72], ...paragraph(80)]));
    expect(bands.map((b) => [b.y0, b.y1])).toEqual([[10, 72], ...paragraph(80).map(([, y0, , y1]) => [y0, y1])]);
  });

  it('joins a limit above and below a sum but lets the joined row take no line after them', () => {
    const bands = inkBands(mask(600, 400, [[20, 10, 60, 20], [10, 24, 70, 74], [20, 78, 60, 88], ...paragraph(93)]));
    expect(bands.map((b) => [b.y0, b.y1])).toEqual([[10, 88], ...paragraph(93).map(([, y0, , y1]) => [y0, y1])]);
  });
});

describe('inkBands on a row of fractions around an equals sign', () => {
  it('joins the denominators once the upper stroke of the equals sign has joined the numerators', () => {
    // dy/dx = dy/du du/dx at 150 dpi: numerators, the upper stroke, the bars with the lower stroke, denominators.
    const bands = inkBands(
      mask(120, 60, [
        [7, 6, 111, 26],
        [38, 27, 52, 29],
        [6, 30, 112, 33],
        [7, 34, 111, 49],
      ]),
    );
    expect(bands.map((b) => [b.y0, b.y1])).toEqual([[6, 49]]);
  });
});

describe('joinScripts on a full-width tall row over a paragraph', () => {
  it('grows the row by one script at most: lines further down are no script of it', () => {
    const row = { y0: 0, y1: 50, x0: 0, x1: 600 };
    const lines = [0, 1, 2, 3, 4].map((k) => ({ y0: 56 + 33 * k, y1: 84 + 33 * k, x0: 0, x1: 600 }));
    const bands = joinScripts([row, ...lines]);
    expect(bands.length).toBeGreaterThanOrEqual(5);
    expect(bands.slice(-4)).toEqual(lines.slice(-4));
  });
});
