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
 * model calls handwritten (is_handwritten). Not yet read: pen-strokes.ts's `a` (the handwriting classifier
 * says Q), `1` (right, but under the threshold beside other symbols), and `\frac{b}{2}` and `b^{2}`,
 * whose pictures the ink-kind model calls printed (so the typeset classifier reads them).
 */

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
});
