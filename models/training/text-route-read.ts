import sharp from 'sharp';
import { assemblyOf, buildTextResult } from '../../appliance/http/v3/text-result.js';
import { parseTextOptions } from '../../appliance/http/v3/text-options.js';
import { prepareImage } from '../../appliance/http/v3/text-image.js';
import { assemblePage } from '../../page/assemble.js';
import type { PageRecognition } from '../../page/model.js';
import { SymbolClassifier } from '../../worker/engine/math/image/classifier.js';
import { loadHandwritingClassifier, symbolsFromEitherHand } from '../../worker/engine/math/image/handwriting.js';
import { createMathRecognizer } from '../../worker/engine/math/index.js';
import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import type { GrayImage } from '../../worker/engine/math/types.js';
import { TextRecognizer } from '../../worker/engine/text/index.js';
import { MATH_MIN_TURN_MARGIN } from '../../worker/inference/index.js';
import { InkKindClassifier } from '../../worker/inference/ink-kind.js';
import { addMath, type MathEngines } from '../../worker/inference/math-page.js';
import { keepsTurn } from '../../worker/inference/math-turn.js';
import { answerLatex } from '../eval/product.js';

/** One image read as POST /v3/text reads it, with the evidence of each calibrated formula read. */
export interface TextRouteRead {
  page: PageRecognition;
  /** The answer's LaTeX after normaliseLatex ('' when the normaliser cannot read it). */
  got: string;
  /** Evidence features of each formula read judged by the printed (formula-confidence) model. */
  printed: number[][];
  /** The same for reads by the handwriting classifier (handwriting-confidence model). */
  handwritten: number[][];
}

/**
 * Reads images as `POST /v3/text` does with default options — the inference worker's steps (text
 * read, turn check, maths added: worker/inference/index.ts) and the answer
 * (appliance/http/v3/text-result.ts), in one process, with the confidence threshold off — and
 * records the evidence features (worker/inference/formula-confidence.ts) each confidence model
 * would have judged. For fitting those models (formula-confidence-reads.ts, handwriting-confidence-reads.ts).
 */
export async function textRouteReader(): Promise<(gray: GrayImage) => Promise<TextRouteRead>> {
  const recognizer = await TextRecognizer.load();
  const classifier = await SymbolClassifier.load();
  const classifiers = { printed: classifier, handwritten: await loadHandwritingClassifier() };
  let printed: number[][] = [];
  let handwritten: number[][] = [];
  const recorded = (into: () => number[][]) => (features: readonly number[]) => {
    into().push([...features]);
    return { confidence: 1, rate: 1 };
  };
  const engines: MathEngines = {
    math: createMathRecognizer({ imageClassifier: classifier, handwritingClassifier: classifiers.handwritten }),
    symbols: (image, handwriting) => symbolsFromEitherHand(image, classifiers, handwriting),
    inkKind: await InkKindClassifier.load(),
    formulaConfidence: recorded(() => printed),
    handwritingConfidence: recorded(() => handwritten),
  };
  const options = parseTextOptions({ src: 'data:,', confidence_rate_threshold: 0 });
  return async (gray) => {
    const png = await sharp(Buffer.from(gray.data), { raw: { width: gray.width, height: gray.height, channels: 1 } })
      .png()
      .toBuffer();
    const image = await prepareImage(png, null);
    printed = [];
    handwritten = [];
    let r = await recognizer.recognize(image.png, { minTurnMargin: MATH_MIN_TURN_MARGIN });
    if (!(await keepsTurn(image.png, r, engines))) r = await recognizer.recognize(image.png, { minTurnMargin: Infinity });
    const page = await addMath(image.png, r, { math: 'auto' }, engines);
    const answer = await buildTextResult('calibration', assemblePage({ ...page, width: image.width, height: image.height }, assemblyOf(options)), options);
    let got = '';
    try {
      got = normaliseLatex(answerLatex(String(answer.text ?? '')));
    } catch {
      // An answer the normaliser cannot read is wrong.
    }
    return { page, got, printed, handwritten };
  };
}
