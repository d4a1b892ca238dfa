import { HANDWRITING_THRESHOLD } from '../../../../page/model.js';
import type { GrayImage, MathSymbol } from '../types.js';
import { CONFIDENCE_EXPONENT } from './calibration.js';
import { SymbolClassifier } from './classifier.js';
import { braceBeforeRows } from './brace-rows.js';
import { pairDelimiters } from './delimiter-pairs.js';
import { symbolsFromImage } from './symbols-from-image.js';

/**
 * Pictures of handwriting. The typeset classifier (math-symbols) has only seen fonts; a hand's
 * symbols come out of it as soup. The handwriting classifier (math-handwriting: the same network
 * and inputs, trained on real pen strokes of Detexify and UNIPEN drawn as ink,
 * models/training/train_handwriting_symbols.py) reads them instead, behind the same pipeline.
 */

export const HANDWRITING_MODEL_ID = 'math-handwriting';
export const HANDWRITING_LABELS_ID = 'math-handwriting-labels';

/**
 * Calibration exponent of the handwriting classifier's probabilities (calibration.ts explains the
 * scheme), checked on the held-out writers' composed expression images
 * (models/eval/handwriting-image-run.ts, report in models/eval/HANDWRITING-IMAGE.md): print's
 * fitting rule (keep 90 % of exact reads at 0.75) on one half gives 0.32 for the 3-epoch model
 * (0.45 for the 2-epoch one), each from about five exact reads, and on the other half it would
 * answer the 0.50–0.75 bin, where 16 % of reads are exact (7 % before). Raw probabilities refuse
 * every wrong read there at the cost of most exact ones, so they are reported as they are.
 */
export const HANDWRITING_CONFIDENCE_EXPONENT = 1;

export function loadHandwritingClassifier(manifestPath?: string): Promise<SymbolClassifier> {
  return SymbolClassifier.load({ modelId: HANDWRITING_MODEL_ID, labelsId: HANDWRITING_LABELS_ID, manifestPath });
}

export interface ImageClassifiers {
  printed: SymbolClassifier;
  /** Absent where the handwriting model is not installed: every image is read as print. */
  handwritten?: SymbolClassifier;
}

export interface HandRead {
  symbols: MathSymbol[];
  handwritten: boolean;
}

/**
 * The symbols of an image with the classifier of its hand. `handwriting` is the ink-kind
 * classifier's probability that the image is handwritten: at HANDWRITING_THRESHOLD or more the
 * handwriting classifier reads it, below it the typeset one, so the read agrees with the
 * is_handwritten /v3/text reports. A hand's read also joins two-piece symbols by the classifier's
 * score (join-by-score.ts), pairs delimiters by kind (delimiter-pairs.ts) and reads a tall stroke
 * before rows as the brace of `cases` (brace-rows.ts): what a hand leaves ambiguous that type does
 * not. Only where that is not known (no ink-kind model) is the image
 * read with both and the read whose symbols its classifier found likelier kept (print on a tie).
 * An unsure band read with both was tried: on a typeset page's prose line the handwriting
 * classifier's confident soup won and turned the line into a display (v3-text.test.ts).
 * `handwritten` says which classifier read it.
 */
export async function symbolsFromEitherHand(image: GrayImage, classifiers: ImageClassifiers, handwriting?: number): Promise<HandRead> {
  const asPrint = () => symbolsFromImage(image, { classifier: classifiers.printed, confidenceExponent: CONFIDENCE_EXPONENT });
  if (!classifiers.handwritten) return { symbols: await asPrint(), handwritten: false };
  const handwritten = classifiers.handwritten;
  const asHandwriting = async () =>
    braceBeforeRows(
      pairDelimiters(await symbolsFromImage(image, { classifier: handwritten, confidenceExponent: HANDWRITING_CONFIDENCE_EXPONENT, joinByScore: true })),
    );
  if (handwriting !== undefined) {
    return handwriting >= HANDWRITING_THRESHOLD ? { symbols: await asHandwriting(), handwritten: true } : { symbols: await asPrint(), handwritten: false };
  }
  const [printed, written] = [await asPrint(), await asHandwriting()];
  return rawRate(written) > rawRate(printed) ? { symbols: written, handwritten: true } : { symbols: printed, handwritten: false };
}

/** Geometric mean of the symbols' probabilities as their classifier gave them (the two classifiers' calibrations differ). */
function rawRate(symbols: readonly MathSymbol[]): number {
  if (!symbols.length) return 0;
  return Math.exp(symbols.reduce((sum, s) => sum + Math.log(Math.max(s.confidence, 1e-12)), 0) / symbols.length);
}
