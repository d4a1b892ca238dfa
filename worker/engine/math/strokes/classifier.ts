import ort from 'onnxruntime-node';
import { z } from 'zod';
import { EngineError } from '../../errors.js';
import { createSession, loadModelFile } from '../../models.js';
import type { Classification } from '../image/classifier.js';
import { CROP_SIZE, FEATURE_COUNT, type NormalisedCrop } from '../image/normalise.js';

/** Manifest ids of the strokes classifier (models/training/strokes-train.py) and its class list. */
export const STROKE_MODEL_ID = 'math-strokes';
export const STROKE_LABELS_ID = 'math-strokes-labels';
/** Runner-up labels kept per symbol. */
const ALTERNATIVES = 3;

const LabelsSchema = z.object({
  classes: z.array(z.string()).min(2),
  cropSize: z.literal(CROP_SIZE),
  featureCount: z.literal(FEATURE_COUNT),
  /** Median height of each class in em, from the training samples. */
  typicalHeightEm: z.array(z.number()),
});
export type StrokeLabels = z.infer<typeof LabelsSchema>;

/** What the strokes front end needs of a classifier; the image SymbolClassifier fits it too. */
export interface CropClassifier {
  readonly labels: StrokeLabels;
  classify(crops: readonly NormalisedCrop[]): Promise<Classification[]>;
}

/**
 * The symbol CNN trained on pen-drawn samples: same architecture, inputs and outputs as the image
 * classifier (crops through the shared normaliseCrop), different weights, because a pen line of
 * constant width looks unlike a typeset glyph with its thick and thin strokes.
 */
export class StrokeClassifier implements CropClassifier {
  private constructor(
    private readonly session: ort.InferenceSession,
    readonly labels: StrokeLabels,
  ) {}

  static async load(opts: { manifestPath?: string } = {}): Promise<StrokeClassifier> {
    const model = await loadModelFile(STROKE_MODEL_ID, opts);
    const labelsFile = await loadModelFile(STROKE_LABELS_ID, opts);
    const parsed = LabelsSchema.safeParse(JSON.parse(labelsFile.bytes.toString('utf8')));
    if (!parsed.success || parsed.data.typicalHeightEm.length !== parsed.data.classes.length) {
      throw new EngineError('manifest_invalid', `${labelsFile.file} does not describe the strokes classifier's inputs (${parsed.error?.message ?? 'one typical height per class'})`);
    }
    // One thread: an expression is a few dozen tiny crops, and requests run side by side.
    const { session } = await createSession(model, { executionProviders: ['cpu'], intraOpThreads: 1 });
    return new StrokeClassifier(session, parsed.data);
  }

  /** Classifies all crops in one batch: softmax top label and the next ALTERNATIVES. */
  async classify(crops: readonly NormalisedCrop[]): Promise<Classification[]> {
    if (!crops.length) return [];
    const n = crops.length;
    const pixels = new Float32Array(n * CROP_SIZE * CROP_SIZE);
    const features = new Float32Array(n * FEATURE_COUNT);
    crops.forEach((crop, i) => {
      pixels.set(crop.pixels, i * CROP_SIZE * CROP_SIZE);
      features.set(crop.features, i * FEATURE_COUNT);
    });
    const output = await this.session.run({
      crops: new ort.Tensor('float32', pixels, [n, 1, CROP_SIZE, CROP_SIZE]),
      features: new ort.Tensor('float32', features, [n, FEATURE_COUNT]),
    });
    const classes = this.labels.classes;
    if (output.probabilities.dims[1] !== classes.length) {
      throw new EngineError('model_mismatch', `the strokes classifier outputs ${output.probabilities.dims[1]} classes but its label file lists ${classes.length}`);
    }
    const data = output.probabilities.data as Float32Array;
    return crops.map((_, i) => {
      const row = data.subarray(i * classes.length, (i + 1) * classes.length);
      const ranked = [...row.keys()].sort((a, b) => row[b] - row[a]).slice(0, ALTERNATIVES + 1);
      const [best, ...rest] = ranked.map((k) => ({ latex: classes[k], confidence: row[k] }));
      return { ...best, alternatives: rest };
    });
  }
}
