import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { parseLayout } from '../engine/math/layout/index.js';
import type { MathSymbol } from '../engine/math/types.js';
import { boxBeforeTurn } from '../engine/text/deskew.js';
import type { OcrLine } from '../engine/text/index.js';
import { addMath, type MathEngines } from './math-page.js';

/**
 * A page scanned two degrees askew: across its 600 px its lines drift by 21 px, more than the
 * 14 px between them, so unturned its rows of ink run into one band and the formula between two
 * lines of prose is never read apart. The text engine measured the skew and gave its boxes in the
 * unturned image (as TextRecognizer.recognize does); the maths pass reads the page straightened.
 * The symbol front end is a stand-in; what is asserted is which band is read as maths, and where.
 */
const SKEW = 2;
const [WIDTH, HEIGHT] = [600, 200];
const SYMBOLS: MathSymbol[] = [
  { latex: 'x', box: { x0: 10, y0: 14, x1: 22, y1: 30 }, confidence: 0.99 },
  { latex: '=', box: { x0: 30, y0: 18, x1: 42, y1: 26 }, confidence: 0.99 },
  { latex: '1', box: { x0: 50, y0: 10, x1: 62, y1: 30 }, confidence: 0.99 },
];
/** Upright rows: prose, a formula, two lines of prose (x, y, width, height). */
const ROWS: [string, number, number, number, number][] = [
  ['The quick brown fox jumps over the lazy dog and runs away', 20, 40, 560, 22],
  ['x=1', 250, 76, 100, 22],
  ['Then it sleeps the whole afternoon under a tree by the river', 20, 112, 560, 22],
  ['and wakes up only when the sun has gone down behind the hills', 20, 148, 560, 22],
];

describe('a page scanned askew', () => {
  it('is read straightened: the formula between two lines of prose is its own band', async () => {
    const ink = ROWS.map(([, x, y, w, h]) => ({ input: { create: { width: w, height: h, channels: 3 as const, background: '#000' } }, left: x, top: y }));
    const upright = await sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: '#fff' } })
      .composite(ink)
      .png()
      .toBuffer();
    // The scan: the upright page turned back by the skew (anticlockwise), cut to its size.
    const turned = await sharp(upright).rotate(-SKEW, { background: '#fff' }).toBuffer({ resolveWithObject: true });
    const [left, top] = [Math.floor((turned.info.width - WIDTH) / 2), Math.floor((turned.info.height - HEIGHT) / 2)];
    const png = await sharp(turned.data).extract({ left, top, width: WIDTH, height: HEIGHT }).png().toBuffer();
    const lines: OcrLine[] = ROWS.map(([text, x, y, width, height]) => {
      const box = boxBeforeTurn({ x, y, width, height }, SKEW, WIDTH, HEIGHT);
      return { text, confidence: 0.95, box, words: [{ text, confidence: 0.95, box }] };
    });
    const engines: MathEngines = {
      math: { recognize: async (region) => parseLayout(region.kind === 'symbols' ? region.symbols : []) },
      symbols: async () => ({ symbols: SYMBOLS, handwritten: false }),
    };
    const ocr = { lines, width: WIDTH, height: HEIGHT, rotation: 0 as const, rotationConfidence: 1, skew: SKEW };
    const page = await addMath(png, ocr, { math: 'auto' }, engines);
    const maths = page.lines.filter((l) => l.kind === 'math');
    expect(maths.map((l) => l.math?.latex)).toEqual(['x=1']);
    // Its box is back in the scan's pixels, about where the text engine saw the formula.
    const seen = lines[1]!.box;
    expect(Math.abs(maths[0]!.box.y + maths[0]!.box.height / 2 - (seen.y + seen.height / 2))).toBeLessThan(4);
    expect(page.lines.filter((l) => l.kind === 'text').map((l) => l.text)).toEqual([ROWS[0]![0], ROWS[2]![0], ROWS[3]![0]]);
  });

  it('is read as it is when it holds no lines of text: a formula alone is not turned by the skew measured on it', async () => {
    // A straight fraction-like block; the text engine's skew measure found 3° on its shape.
    const png = await sharp({ create: { width: 120, height: 60, channels: 3, background: '#fff' } })
      .composite([{ input: { create: { width: 80, height: 4, channels: 3, background: '#000' } }, left: 20, top: 28 }])
      .png()
      .toBuffer();
    const heights: number[] = [];
    const engines: MathEngines = {
      math: { recognize: async (region) => parseLayout(region.kind === 'symbols' ? region.symbols : []) },
      symbols: async (image) => (heights.push(image.height), { symbols: SYMBOLS, handwritten: false }),
    };
    const ocr = { lines: [], width: 120, height: 60, rotation: 0 as const, rotationConfidence: 1, skew: 3 };
    await addMath(png, ocr, { math: 'auto' }, engines);
    // The 4-row bar with its margins; turned by 3° it would span 8 rows.
    expect(heights).toEqual([4 + 8]);
  });
});
