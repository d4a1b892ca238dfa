import { beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../models/training/augment.js';
import { distortStrokes } from '../../../../models/training/strokes-distort.js';
import { strokesFromTex } from '../../../../models/training/strokes-render.js';
import { normaliseLatex } from '../latex-normalise.js';
import { RADICAL, RULE, type Stroke } from '../types.js';
import { StrokeClassifier } from './classifier.js';
import { recognizeStrokes, symbolsFromStrokes, type StrokeSymbolReader } from './index.js';
import { at, bar, radical } from '../../../../test/support/pen-strokes.js';

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

  // Hand-drawn strokes (test/support/pen-strokes.ts): no training example came from them; the classifier was
  // trained on Detexify and UNIPEN writers.
  it('reads hand-drawn a=b, a^2+1, b=2 and fractions', async () => {
    expect(await read([...at('a', 0, 0, 40), ...at('=', 38, 0, 40), ...at('b', 80, 0, 40)])).toBe(normaliseLatex('a=b'));
    const power = [...at('a', 0, 0, 40), ...at('2', 30, -10, 20), ...at('+', 60, 0, 40), ...at('1', 105, 0, 40)];
    expect(await read(power)).toBe(normaliseLatex('a^{2}+1'));
    const equation = [...at('b', 0, 0, 40), ...at('=', 35, 0, 40), ...at('2', 75, 0, 40)];
    expect(await read(equation)).toBe(normaliseLatex('b=2'));
    expect(await read([...at('1', 12, 0, 40), bar(0, 40, 50), ...at('2', 8, 58, 40)])).toBe(normaliseLatex('\\frac{1}{2}'));
    expect(await read([...at('a', 8, 0, 40), bar(0, 44, 50), ...at('b', 8, 58, 40)])).toBe(normaliseLatex('\\frac{a}{b}'));
  });

  it('reads a round hand-drawn zero as the digit, which written maths uses far more than the letter O', async () => {
    expect(await read([...at('1', 0, 0, 40), ...at('0', 36, 0, 40)])).toBe('10');
    expect(await read([...at('a', 0, 0, 40), ...at('+', 38, 0, 40), ...at('0', 80, 0, 40)])).toBe(normaliseLatex('a+0'));
  });

  it('reads a hand-drawn square root as RADICAL over its radicand', async () => {
    const strokes = [radical(0, 0, 50, 64), ...at('a', 30, 8, 40)];
    const symbols = await symbolsFromStrokes(strokes, { classifier });
    expect(symbols.map((s) => s.latex)).toEqual([RADICAL, 'a']);
    expect(await read(strokes)).toBe(normaliseLatex('\\sqrt{a}'));
  });

  it('reads a glyph that no other shares a line with by its shape alone: nothing at its level measures its size', async () => {
    const asked: boolean[][] = [];
    const spy: StrokeSymbolReader = {
      labels: classifier.labels,
      classify: (inputs) => {
        asked.push(inputs.map((i) => i.features[2] === 1)); // the size-known flag (trajectory.ts symbolFeatures)
        return classifier.classify(inputs);
      },
    };
    const root = [radical(0, 0, 60, 80), ...at('2', 30, 10, 48)]; // a sure `2`, alone under its radical: its own vote would be the em
    await symbolsFromStrokes(root, { classifier: spy, regroup: false });
    expect(asked.flat()).not.toContain(true);
    expect(await read(root)).toBe(normaliseLatex('\\sqrt{2}'));
    asked.length = 0;
    await symbolsFromStrokes([...at('a', 0, 0, 40), ...at('+', 38, 0, 40), ...at('1', 80, 0, 40)], { classifier: spy, regroup: false });
    expect(asked).toContainEqual([true, true, true]); // a row: each symbol read again knowing its size
  });

  it('joins two written expressions into one array environment', async () => {
    const first = [...at('a', 0, 0, 40), ...at('+', 38, 0, 40), ...at('1', 80, 0, 40)];
    const second = [...at('b', 0, 120, 40), ...at('=', 38, 120, 40), ...at('2', 80, 120, 40)];
    expect(await read([...first, ...second])).toBe(normaliseLatex('\\begin{array}{l} a+1 \\\\ b=2 \\end{array}'));
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
