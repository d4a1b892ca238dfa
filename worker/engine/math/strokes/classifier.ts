import ort from 'onnxruntime-node';
import { z } from 'zod';
import { EngineError } from '../../errors.js';
import { createSession, loadModelFile } from '../../models.js';
import type { Classification } from '../image/classifier.js';
import { HANDWRITTEN_LOOKALIKES, RARER_TWIN_WEIGHTS } from '../lookalikes.js';
import { SYMBOL_FEATURE_COUNT, TRAJECTORY_CHANNELS, TRAJECTORY_POINTS } from './trajectory.js';

/** Manifest ids of the strokes classifier (models/training/strokes-real-train.py) and its class list. */
export const STROKE_MODEL_ID = 'math-strokes';
export const STROKE_LABELS_ID = 'math-strokes-labels';
/** Runner-up labels kept per symbol. */
const ALTERNATIVES = 3;
/**
 * The classes are trained balanced, but written maths is not: digits, Latin letters and the basic
 * operators and delimiters are far commoner than a Greek letter or a rarer sign of the same shape
 * (x and \chi, v and \nu, o and \sigma, × and x). Every other class's probability is weighted by
 * RARE_PRIOR before renormalising, so a look-alike needs clearer evidence to win.
 */
export const COMMON_CLASSES: ReadonlySet<string> = new Set([
  ...'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
  '+',
  '=',
  '(',
  ')',
  '[',
  ']',
  '<',
  '>',
  '/',
  ',',
  '.',
  '|',
  '!',
  '\\prime',
  '\\sqrt',
]);
const RARE_PRIOR = 0.35;
/**
 * Look-alikes of a commoner class, weighted by how often they occur in maths (HANDWRITTEN_LOOKALIKES),
 * and those the counts there do not settle: the letters `t` and `T` against `+` (TeX's units
 * inflate `t` there) and `\prod` against `\pi`, weighted by the rough ratio of their frequencies.
 */
const LOOKALIKE_PRIOR: Readonly<Record<string, number>> = { t: 0.6, T: 0.4, '\\prod': 0.1, ...HANDWRITTEN_LOOKALIKES };
/** A class's prior: its look-alike weight, a rarer twin's weight times its twin's prior (RARER_TWIN_WEIGHTS), or common against rare. */
const priorOf = (c: string): number => {
  const rarer = RARER_TWIN_WEIGHTS[c];
  if (rarer) return rarer.weight * priorOf(rarer.twin);
  return LOOKALIKE_PRIOR[c] ?? (COMMON_CLASSES.has(c) ? 1 : RARE_PRIOR);
};

const LabelsSchema = z.object({
  classes: z.array(z.string()).min(2),
  points: z.literal(TRAJECTORY_POINTS),
  channels: z.literal(TRAJECTORY_CHANNELS),
  featureCount: z.literal(SYMBOL_FEATURE_COUNT),
  /** Median height of each class in em, from the training samples. */
  typicalHeightEm: z.array(z.number()),
});
export type StrokeLabels = z.infer<typeof LabelsSchema>;

/** One symbol as the classifier reads it (trajectory.ts). */
export interface StrokeSymbolInput {
  points: Float32Array;
  features: Float32Array;
}

/** What the strokes front end needs of a classifier. */
export interface StrokeSymbolReader {
  readonly labels: StrokeLabels;
  classify(inputs: readonly StrokeSymbolInput[]): Promise<Classification[]>;
}

/**
 * The on-line symbol classifier trained on real pen strokes (Detexify, UNIPEN): a small network
 * (a bidirectional GRU, models/training/strokes-gpu/) over each symbol's resampled trajectory, run
 * by onnxruntime on the CPU.
 */
export class StrokeClassifier implements StrokeSymbolReader {
  private constructor(
    private readonly session: ort.InferenceSession,
    readonly labels: StrokeLabels,
  ) {}

  static async load(opts: { manifestPath?: string } = {}): Promise<StrokeClassifier> {
    const model = await loadModelFile(STROKE_MODEL_ID, opts);
    const labelsFile = await loadModelFile(STROKE_LABELS_ID, opts);
    const parsed = LabelsSchema.safeParse(JSON.parse(labelsFile.bytes.toString('utf8')));
    if (!parsed.success || parsed.data.typicalHeightEm.length !== parsed.data.classes.length) {
      throw new EngineError(
        'manifest_invalid',
        `${labelsFile.file} does not describe the strokes classifier's inputs (${parsed.error?.message ?? 'one typical height per class'})`,
      );
    }
    const { session } = await createSession(model, { executionProviders: ['cpu'], intraOpThreads: 1 });
    return new StrokeClassifier(session, parsed.data);
  }

  /** Classifies all symbols in one batch: softmax top label and the next ALTERNATIVES. */
  async classify(inputs: readonly StrokeSymbolInput[]): Promise<Classification[]> {
    if (!inputs.length) return [];
    const n = inputs.length;
    const size = TRAJECTORY_POINTS * TRAJECTORY_CHANNELS;
    const points = new Float32Array(n * size);
    const features = new Float32Array(n * SYMBOL_FEATURE_COUNT);
    inputs.forEach((input, i) => {
      points.set(input.points, i * size);
      features.set(input.features, i * SYMBOL_FEATURE_COUNT);
    });
    const output = await this.session.run({
      points: new ort.Tensor('float32', points, [n, TRAJECTORY_POINTS, TRAJECTORY_CHANNELS]),
      features: new ort.Tensor('float32', features, [n, SYMBOL_FEATURE_COUNT]),
    });
    const classes = this.labels.classes;
    if (output.probabilities.dims[1] !== classes.length) {
      throw new EngineError(
        'model_mismatch',
        `the strokes classifier outputs ${output.probabilities.dims[1]} classes but its label file lists ${classes.length}`,
      );
    }
    const data = output.probabilities.data as Float32Array;
    const prior = classes.map(priorOf);
    return inputs.map((_, i) => {
      const raw = data.subarray(i * classes.length, (i + 1) * classes.length);
      const weighted = raw.map((p, k) => p * prior[k]);
      const total = weighted.reduce((a, b) => a + b, 0) || 1;
      const row = weighted.map((p) => p / total);
      const ranked = [...row.keys()].sort((a, b) => row[b] - row[a]).slice(0, ALTERNATIVES + 1);
      const [best, ...rest] = ranked.map((k) => ({ latex: classes[k], confidence: row[k] }));
      return { ...best, alternatives: rest };
    });
  }
}
