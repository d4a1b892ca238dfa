import type { Classification, SymbolLabels } from '../image/classifier.js';
import { SymbolClassifier } from '../image/classifier.js';
import type { NormalisedCrop } from '../image/normalise.js';

/** Manifest ids of the strokes classifier (models/training/strokes-train.py) and its class list. */
export const STROKE_MODEL_ID = 'math-strokes';
export const STROKE_LABELS_ID = 'math-strokes-labels';

/** What the strokes front end needs of a classifier; the image SymbolClassifier fits it too. */
export interface CropClassifier {
  readonly labels: SymbolLabels;
  classify(crops: readonly NormalisedCrop[]): Promise<Classification[]>;
}

/**
 * The symbol CNN trained on pen-drawn samples: same architecture, inputs and outputs as the image
 * classifier (crops through the shared normaliseCrop), different weights, because a pen line of
 * constant width looks unlike a typeset glyph with its thick and thin strokes.
 */
export type StrokeClassifier = SymbolClassifier;
export const StrokeClassifier = {
  load: (opts: { manifestPath?: string } = {}): Promise<StrokeClassifier> =>
    SymbolClassifier.load({ ...opts, modelId: STROKE_MODEL_ID, labelsId: STROKE_LABELS_ID }),
};
