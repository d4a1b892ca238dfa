import ort from 'onnxruntime-node';
import { z } from 'zod';
import { EngineError } from '../../errors.js';
import { createSession, loadModelFile } from '../../models.js';
import { CROP_SIZE, FEATURE_COUNT, type NormalisedCrop } from './normalise.js';
import { classPrior } from './priors.js';

/** Manifest ids of the classifier and its class list. */
export const SYMBOL_MODEL_ID = 'math-symbols';
export const SYMBOL_LABELS_ID = 'math-symbols-labels';
/** Runner-up labels kept per symbol. */
const ALTERNATIVES = 3;

const LabelsSchema = z.object({
  classes: z.array(z.string()).min(2),
  cropSize: z.literal(CROP_SIZE),
  featureCount: z.literal(FEATURE_COUNT),
  /** Median height of each class in em, from the training crops. */
  typicalHeightEm: z.array(z.number()),
});
export type SymbolLabels = z.infer<typeof LabelsSchema>;

export interface Classification {
  latex: string;
  confidence: number;
  alternatives: Array<{ latex: string; confidence: number }>;
}

export interface SymbolClassifierOptions {
  /** Another manifest than models/manifest.json. */
  manifestPath?: string;
  /** Manifest ids of another model of the same architecture (the strokes classifier). @default SYMBOL_MODEL_ID, SYMBOL_LABELS_ID */
  modelId?: string;
  labelsId?: string;
  /** Threads inside one operator: a formula is a few dozen tiny crops. @default 1 */
  intraOpThreads?: number;
}

/**
 * The CNN symbol classifier (models/training/train_symbols.py), run by onnxruntime on the CPU.
 * The strokes classifier (models/training/strokes-train.py) is the same network with other
 * weights, loaded through `modelId`/`labelsId`.
 */
export class SymbolClassifier {
  /** Each class's prior weight (priors.ts classPrior), or null where every class weighs 1. */
  private readonly priors: Float32Array | null;

  private constructor(
    private readonly session: ort.InferenceSession,
    readonly labels: SymbolLabels,
  ) {
    const priors = Float32Array.from(labels.classes, classPrior);
    this.priors = priors.every((w) => w === 1) ? null : priors;
  }

  static async load(opts: SymbolClassifierOptions = {}): Promise<SymbolClassifier> {
    const model = await loadModelFile(opts.modelId ?? SYMBOL_MODEL_ID, { manifestPath: opts.manifestPath });
    const labelsFile = await loadModelFile(opts.labelsId ?? SYMBOL_LABELS_ID, { manifestPath: opts.manifestPath });
    const parsed = LabelsSchema.safeParse(JSON.parse(labelsFile.bytes.toString('utf8')));
    if (!parsed.success || parsed.data.typicalHeightEm.length !== parsed.data.classes.length) {
      throw new EngineError(
        'manifest_invalid',
        `${labelsFile.file} does not describe this classifier's inputs (${parsed.error?.message ?? 'one typical height per class'})`,
      );
    }
    const { session } = await createSession(model, { executionProviders: ['cpu'], intraOpThreads: opts.intraOpThreads ?? 1 });
    return new SymbolClassifier(session, parsed.data);
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
    const probabilities = output.probabilities;
    const classes = this.labels.classes;
    if (probabilities.dims[1] !== classes.length) {
      throw new EngineError('model_mismatch', `the classifier outputs ${probabilities.dims[1]} classes but its label file lists ${classes.length}`);
    }
    const data = probabilities.data as Float32Array;
    return crops.map((_, i) => {
      const row = this.weighed(data.subarray(i * classes.length, (i + 1) * classes.length));
      const [best, ...rest] = topIndices(row, ALTERNATIVES + 1).map((k) => ({ latex: classes[k]!, confidence: row[k]! }));
      return { ...best!, alternatives: rest };
    });
  }

  /** The probabilities times each class's prior, summing to 1 again (Bayes' rule with the training set's flat prior). */
  private weighed(row: Float32Array): Float32Array {
    if (!this.priors) return row;
    const out = new Float32Array(row.length);
    let sum = 0;
    for (let k = 0; k < row.length; k++) sum += out[k] = row[k]! * this.priors[k]!;
    for (let k = 0; k < row.length; k++) out[k]! /= sum;
    return out;
  }
}

/**
 * The indices of the `count` largest values, largest first (the first index on ties), in one pass:
 * sorting every class of every crop cost more than the network's run.
 */
export function topIndices(values: Float32Array, count: number): number[] {
  const top: number[] = [];
  for (let k = 0; k < values.length; k++) {
    if (top.length === count && values[k]! <= values[top[count - 1]!]!) continue;
    let at = top.length;
    while (at > 0 && values[k]! > values[top[at - 1]!]!) at--;
    top.splice(at, 0, k);
    if (top.length > count) top.pop();
  }
  return top;
}
