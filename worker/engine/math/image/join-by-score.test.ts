import { beforeAll, describe, expect, it } from 'vitest';
import { inkImage } from '../../../../models/training/handwriting-ink.js';
import { at, bar } from '../../../../test/support/pen-strokes.js';
import type { Stroke } from '../types.js';
import type { SymbolClassifier } from './classifier.js';
import { loadHandwritingClassifier } from './handwriting.js';
import { symbolsFromImage } from './symbols-from-image.js';

/** A wavy pen line from x0 to x1 around height y, as a hand draws the bars of = (pen-strokes units: 40 a symbol). */
function wave(x0: number, x1: number, y: number, amplitude: number): Stroke {
  const xs = Array.from({ length: 13 }, (_, k) => x0 + ((x1 - x0) * k) / 12);
  return { x: xs, y: xs.map((x) => y + amplitude * Math.sin((2 * Math.PI * (x - x0)) / (x1 - x0))) };
}

/** A written = whose bars differ in length, slope and wave, beyond merge.ts's rule for typeset bars. */
const wavyEquals = (x: number): Stroke[] => [wave(x, x + 28, 13, 3), wave(x + 11, x + 32, 27, 3)];

describe('joinByScore (handwriting images, the real handwriting classifier)', () => {
  let classifier: SymbolClassifier;
  beforeAll(async () => {
    classifier = await loadHandwritingClassifier();
  });
  const read = async (strokes: Stroke[], joinByScore: boolean) =>
    (await symbolsFromImage(inkImage(strokes, { penPx: 3, ink: 30, marginPx: 20 }), { classifier, joinByScore })).map((s) => s.latex);

  it('joins the two wavy bars of a written = that the geometric merge leaves apart', async () => {
    const strokes = [...at('b', 0, 0, 40), ...wavyEquals(40), ...at('2', 84, 0, 40)];
    expect(await read(strokes, false)).not.toContain('=');
    expect(await read(strokes, true)).toEqual(['b', '=', '2']);
  });

  it('leaves a fraction bar between its numerator and denominator, and symbols a row apart', async () => {
    const fraction = [...at('2', 6, 0, 40), bar(0, 40, 50), ...at('b', 6, 58, 40)];
    expect((await read(fraction, true)).filter((latex) => latex.length > 0)).toHaveLength(3);
    const rows = [...at('2', 0, 0, 40), ...at('2', 0, 70, 40)];
    expect(await read(rows, true)).toEqual(['2', '2']);
  });
});
