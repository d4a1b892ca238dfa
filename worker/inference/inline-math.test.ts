import { describe, expect, it, vi } from 'vitest';
import type { InkMask } from '../engine/math/image/binarise.js';
import type { OcrWord } from '../engine/text/index.js';
import { inlineSegments, withoutRules } from './inline-math.js';
import type { MathRead } from '../../page/model.js';

/** Words laid left to right from [text, x0, x1, confidence] in a 20-px line at y 10. */
const words = (...spec: [string, number, number, number?][]): OcrWord[] =>
  spec.map(([text, x0, x1, confidence = 0.99]) => ({ text, confidence, box: { x: x0, y: 10, width: x1 - x0, height: 20 } }));
const band = { y0: 10, y1: 30, x0: 0, x1: 400 };

/** A mask with ink under every word, plus the extra column runs given. */
function mask(ws: OcrWord[], extra: [number, number][] = []): InkMask {
  const width = 400;
  const data = new Uint8Array(width * 40);
  const fill = (x0: number, x1: number) => {
    for (let y = 12; y < 28; y++) data.fill(1, y * width + x0, y * width + x1);
  };
  for (const w of ws) fill(w.box.x + 1, w.box.x + w.box.width - 1);
  for (const [x0, x1] of extra) fill(x0, x1);
  return { data, width, height: 40 } as InkMask;
}

const read = (latex: string, confidenceRate = 0.95, symbolCount = 5): MathRead => ({
  latex,
  confidence: confidenceRate ** symbolCount,
  confidenceRate,
  symbolCount,
});
const shape = (segments: Awaited<ReturnType<typeof inlineSegments>>) =>
  segments?.map((s) => (s.kind === 'math' ? `[${s.math.latex}]` : s.words.map((w) => w.text).join(' ')));

describe('inlineSegments', () => {
  it('reads a run of operators and misread scripts as one formula, cut halfway to its neighbours', async () => {
    const ws = words(
      ['The', 10, 40],
      ['identity', 48, 110],
      ['x?', 120, 135, 0.55],
      ['+', 142, 150],
      ['y?', 158, 172, 0.8],
      ['=', 180, 188],
      ['z2', 196, 210, 0.8],
      ['holds', 220, 260],
    );
    const readSpan = vi.fn(async () => read('x^{2}+y^{2}=z^{2}'));
    const segments = await inlineSegments(ws, band, mask(ws), readSpan);
    expect(shape(segments)).toEqual(['The identity', '[x^{2}+y^{2}=z^{2}]', 'holds']);
    expect(readSpan).toHaveBeenCalledExactlyOnceWith(115, 215);
  });

  it('reads no span when overlapping word boxes leave the run none of its own', async () => {
    const ws = words(['The', 10, 40], ['overlong', 100, 300], ['x?', 120, 135, 0.55], ['+', 142, 150], ['holds', 152, 190]);
    const readSpan = vi.fn(async () => read('x^{2}+'));
    const segments = await inlineSegments(ws, band, mask(ws), readSpan);
    for (const [x0, x1] of readSpan.mock.calls as unknown as [number, number][]) expect(x1).toBeGreaterThan(x0);
    expect(segments?.every((s) => s.kind !== 'math' || s.box.width > 0) ?? true).toBe(true);
  });

  it('leaves prose alone: articles, numbers and punctuation are not maths, and nothing is read', async () => {
    const ws = words(['In', 10, 25], ['2023,', 32, 70], ['I', 78, 82], ['saw', 90, 120], ['a', 128, 134], ['cat.', 142, 170]);
    const readSpan = vi.fn(async () => read('x'));
    expect(await inlineSegments(ws, band, mask(ws), readSpan)).toBeNull();
    expect(readSpan).not.toHaveBeenCalled();
  });

  it('joins ink the text model read nothing of (a fraction) to the signs beside it', async () => {
    const ws = words(['Let', 10, 40], ['α', 50, 58, 0.94], ['≤', 66, 74], ['be', 110, 126], ['given.', 134, 180]);
    const readSpan = vi.fn(async () => read('\\alpha\\leq\\frac{a}{b}'));
    const segments = await inlineSegments(ws, band, mask(ws, [[80, 100]]), readSpan);
    expect(shape(segments)).toEqual(['Let', '[\\alpha\\leq\\frac{a}{b}]', 'be given.']);
    expect(readSpan).toHaveBeenCalledWith(45, 105);
  });

  it('takes `a` as an operand beside a relation, and keeps the sentence’s full stop out of the formula', async () => {
    const ws = words(['so', 10, 25], ['that', 32, 60], ['a', 70, 76], ['≠', 84, 92], ['b.', 100, 112]);
    const segments = await inlineSegments(ws, band, mask(ws), async () => read('a\\neq b.'));
    expect(shape(segments)).toEqual(['so that', '[a\\neq b]', '.']);
  });

  it('keeps the words when the recogniser is unsure or finds no maths in the span', async () => {
    const ws = words(['then', 10, 40], ['x', 50, 56], ['+', 64, 72], ['1', 80, 86], ['more', 96, 130]);
    expect(await inlineSegments(ws, band, mask(ws), async () => read('x+1', 0.05))).toBeNull(); // unsure on the calibrated scale
    expect(await inlineSegments(ws, band, mask(ws), async () => read('xtl', 0.9))).toBeNull();
  });

  it('does not read a lone bullet of unread ink as maths', async () => {
    const ws = words(['Fresh', 40, 80], ['bread', 90, 130]);
    const segments = await inlineSegments(ws, band, mask(ws, [[10, 18]]), async () => read('\\cdot', 0.9, 1));
    expect(segments).toBeNull();
  });

  it('does not take a table rule through the line for unread ink once rules are removed', async () => {
    const ws = words(['Iron', 10, 50], ['7.87', 140, 180], ['1538', 280, 320]);
    const ruled = mask(ws);
    for (let y = 12; y < 14; y++) ruled.data.fill(1, y * 400, y * 400 + 390); // a 2-px rule across the row
    ruled.data.fill(1, 30 * 400 + 100, 30 * 400 + 112); // and a short bar (a fraction's), below
    const readSpan = vi.fn(async () => read('\\frac{a}{7.87}'));
    expect(await inlineSegments(ws, band, withoutRules(ruled, 60), readSpan)).toBeNull();
    expect(readSpan).not.toHaveBeenCalled();
    const kept = withoutRules(ruled, 60);
    expect(kept.data[30 * 400 + 105]).toBe(1);
    expect(kept.data[12 * 400 + 100]).toBe(0);
  });
});
