import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { parseLayout } from '../engine/math/layout/index.js';
import type { MathSymbol } from '../engine/math/types.js';
import { addMath, type MathEngines } from './math-page.js';

/**
 * The formula-confidence model reads every formula a second time at twice its size. A document's
 * scanned pages send `calibrate: false` (no confidence_rate_threshold applies to them), and then no
 * second read is spent. The symbol front end is a counting stand-in here: what is asserted is how
 * often the page step asks for a read, not what a classifier answers.
 */
const X_PLUS_ONE: MathSymbol[] = [
  { latex: 'x', box: { x0: 10, y0: 14, x1: 22, y1: 30 }, confidence: 0.99 },
  { latex: '+', box: { x0: 30, y0: 15, x1: 42, y1: 27 }, confidence: 0.99 },
  { latex: '1', box: { x0: 50, y0: 10, x1: 62, y1: 30 }, confidence: 0.99 },
];

async function read(options: { calibrate?: boolean }, hand: { handwritten?: boolean; handwritingModel?: boolean } = {}) {
  const png = await sharp({ create: { width: 80, height: 40, channels: 3, background: '#fff' } })
    .composite([{ input: { create: { width: 50, height: 16, channels: 3, background: '#000' } }, left: 10, top: 12 }])
    .png()
    .toBuffer();
  let reads = 0;
  const engines: MathEngines = {
    math: { recognize: async (region) => parseLayout(region.kind === 'symbols' ? region.symbols : []) },
    symbols: async () => (reads++, { symbols: X_PLUS_ONE, handwritten: hand.handwritten ?? false }),
    formulaConfidence: () => ({ confidence: 0.9, rate: 0.9 }),
    ...(hand.handwritingModel ? { handwritingConfidence: () => ({ confidence: 0.3, rate: 0.4 }) } : {}),
  };
  const ocr = { lines: [], width: 80, height: 40, rotation: 0 as const, rotationConfidence: 1, skew: 0 };
  const page = await addMath(png, ocr, { math: 'formula', ...options }, engines);
  return { reads, calibrated: page.formula?.calibrated };
}

describe('formula confidence on the page step', () => {
  it('reads a formula twice to calibrate it by default, and once when the task says calibrate: false', async () => {
    expect(await read({})).toEqual({ reads: 2, calibrated: { confidence: 0.9, rate: 0.9 } });
    expect(await read({ calibrate: false })).toEqual({ reads: 1, calibrated: undefined });
  });

  it('judges a read by the handwriting classifier by the handwriting-confidence model, never by the printed one', async () => {
    expect(await read({}, { handwritten: true, handwritingModel: true })).toEqual({ reads: 2, calibrated: { confidence: 0.3, rate: 0.4 } });
    expect(await read({ calibrate: false }, { handwritten: true, handwritingModel: true })).toEqual({ reads: 1, calibrated: undefined });
    // Without a handwriting model the read keeps its per-symbol rate: the printed model's scale is not the hand's.
    expect(await read({}, { handwritten: true })).toEqual({ reads: 1, calibrated: undefined });
  });
});
