import { beforeAll, describe, expect, it } from 'vitest';
import { datasetsPresent, readRealSamples, type RealSample } from '../../../../models/training/strokes-real.js';
import { SYMBOL_CLASSES } from '../image/vocabulary.js';
import { RARER_TWIN_WEIGHTS } from '../lookalikes.js';
import { StrokeClassifier } from './classifier.js';
import { strokesBox } from './geometry.js';
import { symbolFeatures, trajectory } from './trajectory.js';

describe('rarer twins', () => {
  it('weigh a rare sign against the letter or relation a hand draws alike, by their counts in maths', () => {
    expect(RARER_TWIN_WEIGHTS['\\propto']).toEqual({ twin: '\\alpha', weight: 0.05 });
    expect(RARER_TWIN_WEIGHTS['\\Pi'].twin).toBe('\\pi');
    expect(RARER_TWIN_WEIGHTS['\\Pi'].weight).toBeCloseTo(6 / 79, 6);
  });
});

/**
 * Detexify drawings of training fold 1 (never the held-out fold 0), read alone with their size
 * hidden. Before the weights (models/training/README.md, thirteenth round) 4 of its 7 `\alpha`
 * read `\alpha` (the rest `\propto`) and 6 of its 7 `\pi`.
 */
describe.skipIf(!datasetsPresent())('rarer twins on drawings of training writers', () => {
  let classifier: StrokeClassifier;
  let samples: RealSample[];
  beforeAll(async () => {
    classifier = await StrokeClassifier.load();
    samples = await readRealSamples({ folds: (f) => f === 1 });
  }, 60_000);

  const reads = async (latex: string): Promise<number> => {
    const drawn = samples.filter((s) => SYMBOL_CLASSES[s.label] === latex);
    const read = await classifier.classify(drawn.map((s) => ({ points: trajectory(s.strokes), features: symbolFeatures(strokesBox(s.strokes), 1, false) })));
    return read.filter((r) => r.latex === latex).length;
  };

  it('reads a drawn \\alpha and \\pi as themselves, not as \\propto and \\Pi', async () => {
    expect(await reads('\\alpha')).toBeGreaterThanOrEqual(6);
    expect(await reads('\\pi')).toBe(7);
  });
});
