import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../models/training/augment.js';
import { StrokeClassifier } from '../engine/math/strokes/classifier.js';
import { at } from '../../test/support/pen-strokes.js';
import type { Stroke } from '../engine/math/types.js';
import type { FormulaConfidenceModel } from './formula-confidence.js';
import { judgeStrokes, loadStrokesConfidence, readJudged, strokesEvidence, strokesFeatures, STROKES_FEATURES } from './strokes-confidence.js';

/** The spec's default confidence_rate_threshold (4.2). */
const DEFAULT_CONFIDENCE_RATE_THRESHOLD = 0.75;

const feature = (values: number[], name: (typeof STROKES_FEATURES)[number]) => values[STROKES_FEATURES.indexOf(name)]!;

/** Seeded scribbles: strokes of random wandering points over one writing line. */
function scribble(seed: number, count: number): Stroke[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, k) => {
    let [x, y] = [k * 30 + random() * 20, random() * 40];
    const points = Array.from({ length: 12 }, () => [(x += (random() - 0.5) * 25), (y += (random() - 0.5) * 25)] as const);
    return { x: points.map((p) => p[0]), y: points.map((p) => p[1]) };
  });
}

describe('strokes confidence', () => {
  let classifier: StrokeClassifier;
  let model: FormulaConfidenceModel;
  beforeAll(async () => {
    classifier = await StrokeClassifier.load();
    model = await loadStrokesConfidence();
  });

  it('gathers the evidence of both reads and the tilted ones', async () => {
    const written = [...at('a', 0, 0, 40), ...at('=', 38, 0, 40), ...at('b', 80, 0, 40)];
    const evidence = await strokesEvidence(written, { classifier });
    const values = strokesFeatures(evidence);
    expect(evidence.first.result.latex.replace(/\s/g, '')).toBe('a=b');
    expect(feature(values, 'second_read_same')).toBe(1);
    expect(feature(values, 'tilted_reads_same')).toBe(1);
    expect(feature(values, 'strokes_per_symbol')).toBeCloseTo(written.length / evidence.first.symbols.length, 9);
    expect(feature(values, 'structure')).toBe(0);
    expect(feature(values, 'log_symbols')).toBeCloseTo(Math.log(4), 9);
  });

  it('answers clean hand-drawn writing and refuses scribbles at the default threshold', async () => {
    for (const written of [at('2', 0, 0, 40), [...at('a', 0, 0, 40), ...at('+', 38, 0, 40), ...at('1', 80, 0, 40)]]) {
      const { rate, confidence } = await readJudged(model, written, { classifier });
      expect(rate).toBeGreaterThanOrEqual(DEFAULT_CONFIDENCE_RATE_THRESHOLD);
      expect(confidence).toBeLessThanOrEqual(rate);
    }
    for (const seed of [1, 2, 3]) {
      const { result, rate } = await readJudged(model, scribble(seed, 5), { classifier });
      expect(result.latex, `scribble ${seed}`).not.toBe('');
      expect(rate, `scribble ${seed} read ${result.latex}`).toBeLessThan(DEFAULT_CONFIDENCE_RATE_THRESHOLD);
    }
  });

  it('gives no confidence to a read of nothing', async () => {
    expect(judgeStrokes(model, await strokesEvidence([], { classifier }))).toEqual({ confidence: 0, rate: 0 });
  });

  it('refuses a model fitted on other features', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-strokes-confidence-'));
    const bytes = JSON.stringify({ features: ['mean_log_p'], mean: [0], scale: [1], weights: [1], bias: 0, rate_knot: 0.5 });
    await writeFile(join(dir, 'model.json'), bytes);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await writeFile(
      join(dir, 'manifest.json'),
      JSON.stringify({ models: [{ id: 'strokes-confidence', name: 'old', version: '0', path: 'model.json', sha256 }] }),
    );
    await expect(loadStrokesConfidence(join(dir, 'manifest.json'))).rejects.toThrow(/fitted on features mean_log_p/);
  });
});
