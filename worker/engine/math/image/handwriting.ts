import { HANDWRITING_THRESHOLD } from '../../../../page/model.js';
import { PICTURE_LOOKALIKES } from '../lookalikes.js';
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
  /** Print on a scan (scan-classifier.ts); absent where that model is not installed: scans are read by `printed`. */
  scanned?: SymbolClassifier;
  /** Absent where the handwriting model is not installed: every image is read as print. */
  handwritten?: SymbolClassifier;
}

export interface HandRead {
  symbols: MathSymbol[];
  handwritten: boolean;
}

/**
 * Ink-kind answers from HANDWRITING_THRESHOLD up to this one are unsure: ink kind was trained on
 * MathJax fonts, and pdflatex's Computer Modern at 150 dpi scores up to 0.65 on some formulas
 * (`4x-7<2x+5`, `\text{CO}_{2}`), while 8 % of held-out writers' pictures score under 0.5.
 * From here up the handwriting classifier alone reads the image.
 */
export const SURELY_HANDWRITTEN = 0.9;

/**
 * Where ink kind is unsure, a typeset read whose symbols the typeset classifier gives at least this
 * geometric-mean probability is print. The typeset classifier is sure of type and never of a hand:
 * on the held-out formulas at 150 dpi its rate is 0.77 or more for 99 % of them (0.85 or more for
 * every one ink kind calls handwritten), and on 240 held-out writers' pictures it is at most 0.69
 * (99 % under 0.59; models/eval/HANDWRITING-IMAGE.md).
 */
export const PRINT_SURE_RATE = 0.75;

/**
 * The symbols of an image with the classifier of its hand. `handwriting` is the ink-kind
 * classifier's probability that the image is handwritten:
 * - under HANDWRITING_THRESHOLD the typeset classifier reads it;
 * - at SURELY_HANDWRITTEN or more the handwriting classifier does;
 * - in between (unsure), the typeset read stands when the typeset classifier is sure of its
 *   symbols (PRINT_SURE_RATE), else the handwriting classifier reads it.
 * A hand's read weighs look-alikes by how often they occur in maths (lookalikes.ts: `0` over `O`,
 * `x` over `\propto`), reads an unsure wide crop also squeezed to its class's usual proportions
 * (wide-views.ts), joins two-piece symbols by the classifier's score (join-by-score.ts), pairs delimiters by kind
 * (delimiter-pairs.ts) and reads a tall stroke before rows as the brace of `cases` (brace-rows.ts):
 * what a hand leaves ambiguous that type does not. Only where ink kind is not known (no ink-kind
 * model) is the image read with both and the read whose symbols its classifier found likelier kept
 * (print on a tie). Keeping the likelier read in the unsure zone was tried: on a typeset page's
 * prose line the handwriting classifier's confident soup won and turned the line into a display
 * (v3-text.test.ts); the typeset classifier's own certainty does not let it.
 * `handwritten` says which classifier read it.
 */
export async function symbolsFromEitherHand(image: GrayImage, classifiers: ImageClassifiers, handwriting?: number): Promise<HandRead> {
  const asPrint = () =>
    symbolsFromImage(image, { classifier: classifiers.printed, scanClassifier: classifiers.scanned, confidenceExponent: CONFIDENCE_EXPONENT });
  if (!classifiers.handwritten) return { symbols: await asPrint(), handwritten: false };
  const handwritten = classifiers.handwritten;
  const asHandwriting = async () =>
    braceBeforeRows(
      pairDelimiters(
        await symbolsFromImage(image, {
          classifier: handwritten,
          confidenceExponent: HANDWRITING_CONFIDENCE_EXPONENT,
          joinByScore: true,
          squeezeWide: true,
          typesetRepairs: false,
          priors: PICTURE_LOOKALIKES,
        }),
      ),
    );
  if (handwriting !== undefined) {
    if (handwriting < HANDWRITING_THRESHOLD) return { symbols: await asPrint(), handwritten: false };
    if (handwriting < SURELY_HANDWRITTEN) {
      const printed = await asPrint();
      if (rawRate(printed) >= PRINT_SURE_RATE) return { symbols: printed, handwritten: false };
    }
    return { symbols: await asHandwriting(), handwritten: true };
  }
  const [printed, written] = [await asPrint(), await asHandwriting()];
  return rawRate(written) > rawRate(printed) ? { symbols: written, handwritten: true } : { symbols: printed, handwritten: false };
}

/** Geometric mean of the symbols' probabilities as their classifier gave them (the two classifiers' calibrations differ). */
function rawRate(symbols: readonly MathSymbol[]): number {
  if (!symbols.length) return 0;
  return Math.exp(symbols.reduce((sum, s) => sum + Math.log(Math.max(s.confidence, 1e-12)), 0) / symbols.length);
}
