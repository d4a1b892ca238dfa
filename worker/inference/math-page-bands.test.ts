import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { parseLayout } from '../engine/math/layout/index.js';
import type { MathSymbol } from '../engine/math/types.js';
import type { OcrLine } from '../engine/text/index.js';
import { addMath, type MathEngines } from './math-page.js';

/**
 * A band holding a fraction beside the rest of its equation (`a^m/a^n = a^{m-n}`): the text model
 * reads the numerator and the denominator as `am` over `an`, two common words. Stacked lines are
 * no line of prose, so the band is not cut into columns there: the formula is read whole. The
 * symbol front end is a counting stand-in; what is asserted is which crops the page step reads.
 */
const SYMBOLS: MathSymbol[] = [
  { latex: 'x', box: { x0: 10, y0: 14, x1: 22, y1: 30 }, confidence: 0.99 },
  { latex: '=', box: { x0: 30, y0: 18, x1: 42, y1: 26 }, confidence: 0.99 },
  { latex: '1', box: { x0: 50, y0: 10, x1: 62, y1: 30 }, confidence: 0.99 },
];

const line = (text: string, x: number, y: number, width: number, height: number): OcrLine => ({
  text,
  confidence: 0.95,
  box: { x, y, width, height },
  words: [{ text, confidence: 0.95, box: { x, y, width, height } }],
});

describe('a stacked formula beside the rest of its line', () => {
  it('is read whole, not cut where its numerator and denominator read like words', async () => {
    const ink = (left: number, top: number, width: number, height: number) => ({
      input: { create: { width, height, channels: 3 as const, background: '#000' } },
      left,
      top,
    });
    const png = await sharp({ create: { width: 130, height: 50, channels: 3, background: '#fff' } })
      .composite([ink(5, 4, 29, 14), ink(3, 22, 33, 2), ink(8, 30, 25, 15), ink(64, 18, 50, 18)])
      .png()
      .toBuffer();
    const widths: number[] = [];
    const engines: MathEngines = {
      math: { recognize: async (region) => parseLayout(region.kind === 'symbols' ? region.symbols : []) },
      symbols: async (image) => (widths.push(image.width), { symbols: SYMBOLS, handwritten: false }),
    };
    const ocr = {
      lines: [line('am', 5, 4, 29, 21), line('a', 64, 26, 12, 10), line('m-n', 74, 18, 40, 14), line('an', 8, 35, 25, 18)],
      width: 130,
      height: 50,
      rotation: 0 as const,
      rotationConfidence: 1,
      skew: 0,
    };
    const page = await addMath(png, ocr, { math: 'auto' }, engines);
    expect(widths).toEqual([111 + 8]); // one read: the whole band (x 3…114) with its margins
    expect(page.lines.filter((l) => l.kind === 'math')).toHaveLength(1);
    expect(page.formula?.latex).toBe('x=1');
  });
});
