import { beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../models/training/augment.js';
import { distortStrokes } from '../../../../models/training/strokes-distort.js';
import { strokesFromTex } from '../../../../models/training/strokes-render.js';
import { normaliseLatex } from '../latex-normalise.js';
import { RADICAL, RULE, type Stroke } from '../types.js';
import { StrokeClassifier } from './classifier.js';
import { recognizeStrokes, symbolsFromStrokes } from './index.js';
import { at, bar, radical } from './test-pen.js';

const EM_PX = 48;

/** `tex` typeset by MathJax, traced into pen strokes and, with a seed, distorted like handwriting. */
async function written(tex: string, seed?: number): Promise<Stroke[]> {
  const traced = await strokesFromTex(tex, 'tex', EM_PX);
  return seed === undefined ? traced : distortStrokes(traced, seededRandom(seed), { unit: EM_PX, strength: 0.6 });
}

describe('recognizeStrokes', () => {
  let classifier: StrokeClassifier;
  beforeAll(async () => {
    classifier = await StrokeClassifier.load();
  });
  const read = async (strokes: Stroke[]) => normaliseLatex((await recognizeStrokes(strokes, { classifier })).latex);

  it.each([
    ['x^{2}+1', 1],
    ['\\frac{a}{b}', 2],
    ['\\sqrt{x}', 3],
    ['a=b', 4],
    ['y=2x-3', 5],
  ])('reads %s traced from type and distorted like handwriting', async (tex, seed) => {
    expect(await read(await written(tex, seed))).toBe(normaliseLatex(tex));
  });

  it('reads hand-drawn x^2+1, b=2 and a fraction', async () => {
    const power = [...at('x', 0, 0, 40), ...at('2', 30, -10, 20), ...at('+', 60, 0, 40), ...at('1', 105, 0, 40)];
    expect(await read(power)).toBe(normaliseLatex('x^{2}+1'));
    const equation = [...at('b', 0, 0, 40), ...at('=', 35, 0, 40), ...at('2', 75, 0, 40)];
    expect(await read(equation)).toBe(normaliseLatex('b=2'));
    const fraction = [...at('1', 12, 0, 40), bar(0, 40, 50), ...at('2', 8, 58, 40)];
    expect(await read(fraction)).toBe(normaliseLatex('\\frac{1}{2}'));
  });

  it('reads a hand-drawn square root as RADICAL over its radicand', async () => {
    const strokes = [radical(0, 0, 50, 60), ...at('x', 28, 8, 40)];
    const symbols = await symbolsFromStrokes(strokes, { classifier });
    expect(symbols.map((s) => s.latex)).toEqual([RADICAL, 'x']);
    expect(await read(strokes)).toBe(normaliseLatex('\\sqrt{x}'));
  });

  it('joins two written expressions into one array environment', async () => {
    const first = await written('x+1', 6);
    const second = (await written('a=b', 7)).map((s) => ({ x: s.x, y: s.y.map((y) => y + 3 * EM_PX) }));
    expect(await read([...first, ...second])).toBe(normaliseLatex('\\begin{array}{l} x+1 \\\\ a=b \\end{array}'));
  });

  it('gives every symbol a box in the strokes’ own units and a probability', async () => {
    const strokes = await written('\\frac{a}{b}-c', 8);
    const symbols = await symbolsFromStrokes(strokes, { classifier });
    expect(symbols.filter((s) => s.latex === RULE)).toHaveLength(2);
    const xs = strokes.flatMap((s) => s.x);
    for (const s of symbols) {
      expect(s.box.x0).toBeGreaterThanOrEqual(Math.min(...xs) - 3);
      expect(s.box.x1).toBeLessThanOrEqual(Math.max(...xs) + 3);
      expect(s.confidence).toBeGreaterThan(0);
    }
  });

  it('reads nothing from no strokes', async () => {
    expect(await recognizeStrokes([], { classifier })).toEqual({ latex: '', confidence: 0, boxes: [] });
  });
});
