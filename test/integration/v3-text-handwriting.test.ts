import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inkImage } from '../../models/training/handwriting-ink.js';
import { at, radical } from '../support/pen-strokes.js';
import type { Stroke } from '../../worker/engine/math/types.js';
import { dataUrl, startMathStack } from './v3-math-support.js';

/**
 * Pictures of handwriting through POST /v3/text with default options (so the default
 * confidence_rate_threshold 0.75 applies), read by the real inference worker. The ink is drawn
 * from pen coordinates written by hand for the tests (test/support/pen-strokes.ts, no
 * training writer's) with a round pen, as a photo of a written line shows it; the handwriting
 * classifier was trained on Detexify and UNIPEN writers only. The classifier reads what the ink-kind
 * model calls handwritten (is_handwritten). A read by the handwriting classifier reports the
 * handwriting-confidence model's calibrated rate (models/eval/HANDWRITING-CONFIDENCE.md). Not yet
 * read: pen-strokes.ts's `a` (the handwriting classifier says Q, and the answer is refused), and
 * `\frac{b}{2}` and `b^{2}`, whose pictures the ink-kind model calls printed (so the typeset
 * classifier reads them).
 */

/** pen-strokes.ts's `x` (two arcs back to back, `)(`) drawn `times` as wide as the pen wrote it, from x = `dx`. */
const wideX = (times: number, dx: number): Stroke[] => at('x', 0, 0, 40).map((s) => ({ x: s.x.map((v) => v * times + dx), y: s.y }));

/** Strokes in pen-strokes units (a 40-unit symbol height) drawn at 1 pixel per unit with a 3-pixel pen. */
async function picture(strokes: Stroke[]): Promise<Buffer> {
  const image = inkImage(strokes, { penPx: 3, ink: 30, marginPx: 20 });
  return sharp(Buffer.from(image.data), { raw: { width: image.width, height: image.height, channels: 1 } })
    .png()
    .toBuffer();
}

describe('POST /v3/text reads pictures of handwriting at default options', () => {
  let s: Awaited<ReturnType<typeof startMathStack>>;

  beforeAll(async () => {
    s = await startMathStack();
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
  });

  it.each([
    ['b+2', () => [...at('b', 0, 0, 40), ...at('+', 38, 0, 40), ...at('2', 80, 0, 40)]],
    ['b=2', () => [...at('b', 0, 0, 40), ...at('=', 38, 0, 40), ...at('2', 80, 0, 40)]],
    ['\\sqrt{2}', () => [radical(0, 0, 50, 64), ...at('2', 30, 8, 40)]],
    // A flat x, half as wide again as tall, read `\propto` (answered at 0.79): image/wide-views.ts, lookalikes.ts PICTURE_LOOKALIKES.
    ['b+x', () => [...at('b', 0, 0, 40), ...at('+', 38, 0, 40), ...wideX(1.6, 80)]],
    // Read exactly before too, but refused: its symbols' rate was 0.73; the calibrated rate answers it.
    ['0=b', () => [...at('0', 0, 0, 40), ...at('=', 38, 0, 40), ...at('b', 80, 0, 40)]],
  ])(
    '%s',
    async (latex, strokes) => {
      const r = await s.call('POST', '/v3/text', { src: dataUrl(await picture(strokes())), formats: ['text', 'latex_styled'] });
      expect(r.status, JSON.stringify(r.body) + s.workerLog().slice(-2000)).toBe(200);
      expect(r.body.error, JSON.stringify(r.body)).toBeUndefined();
      expect(String(r.body.latex_styled).replace(/\s/g, '')).toBe(latex);
      expect(r.body.confidence_rate).toBeGreaterThanOrEqual(0.75);
      // The handwriting classifier reads an image the ink-kind model calls handwritten.
      expect(r.body.is_handwritten).toBe(true);
    },
    60_000,
  );

  it('refuses a wrong read of handwriting at the default threshold (a+2 read Q+2)', async () => {
    const strokes = [...at('a', 0, 0, 40), ...at('+', 38, 0, 40), ...at('2', 80, 0, 40)];
    const png = await picture(strokes);
    const r = await s.call('POST', '/v3/text', { src: dataUrl(png), formats: ['text', 'latex_styled'] });
    expect(r.body.error, JSON.stringify(r.body)).toBe('math_confidence');
    const read = await s.call('POST', '/v3/text', { src: dataUrl(png), formats: ['text', 'latex_styled'], confidence_rate_threshold: 0 });
    // The read really is wrong (were it right, refusing it would be no merit), and judged by the handwriting model.
    expect(String(read.body.latex_styled).replace(/\s/g, '')).not.toBe('a+2');
    expect(read.body.is_handwritten).toBe(true);
    expect(read.body.confidence_rate).toBeLessThan(0.75);
  }, 60_000);
});
