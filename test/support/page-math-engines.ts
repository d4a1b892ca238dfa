import { createMathRecognizer } from '../../worker/engine/math/index.js';
import { SymbolClassifier } from '../../worker/engine/math/image/classifier.js';
import { loadHandwritingClassifier, symbolsFromEitherHand } from '../../worker/engine/math/image/handwriting.js';
import { loadScanClassifier } from '../../worker/engine/math/image/scan-classifier.js';
import type { MathEngines } from '../../worker/inference/formula-read.js';

/**
 * The maths engines a page's maths pass reads with, as the inference worker builds them: the
 * typeset, scans' and handwriting symbol classifiers (one onnxruntime thread for the typeset one),
 * the image front end picking between the hands. No ink kind and no calibrated confidence: a test
 * that needs them adds them.
 */
export async function pageMathEngines(): Promise<MathEngines> {
  const printed = await SymbolClassifier.load({ intraOpThreads: 1 });
  const classifiers = { printed, scanned: await loadScanClassifier(), handwritten: await loadHandwritingClassifier() };
  return {
    math: createMathRecognizer({ imageClassifier: printed, scanClassifier: classifiers.scanned, handwritingClassifier: classifiers.handwritten }),
    symbols: (image, handwriting) => symbolsFromEitherHand(image, classifiers, handwriting),
  };
}
