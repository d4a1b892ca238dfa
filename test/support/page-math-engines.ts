import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { PageRecognition } from '../../page/model.js';
import { createMathRecognizer } from '../../worker/engine/math/index.js';
import { SymbolClassifier } from '../../worker/engine/math/image/classifier.js';
import { loadHandwritingClassifier, symbolsFromEitherHand } from '../../worker/engine/math/image/handwriting.js';
import { loadScanClassifier } from '../../worker/engine/math/image/scan-classifier.js';
import type { TextRecognizer } from '../../worker/engine/text/index.js';
import type { MathEngines } from '../../worker/inference/formula-read.js';
import { MATH_MIN_TURN_MARGIN } from '../../worker/inference/index.js';
import { addMath } from '../../worker/inference/math-page.js';
import { compileLatex, type CompileOptions } from './latex-pdf.js';

const run = promisify(execFile);

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

/**
 * `body` typeset by pdflatex (`compile`), rasterised at 200 dpi in grey and read as /v3/pdf reads a
 * scanned page: the text engine, then the page's maths pass (`auto`, no calibration).
 */
export async function readScannedPage(body: string, compile: CompileOptions, recognizer: TextRecognizer, engines: MathEngines): Promise<PageRecognition> {
  const pdf = await compileLatex(body, compile);
  try {
    await run('pdftoppm', ['-r', '200', '-gray', '-png', '-singlefile', pdf.path, join(pdf.dir, 'page')]);
    const png = await readFile(join(pdf.dir, 'page.png'));
    const ocr = await recognizer.recognize(png, { minTurnMargin: MATH_MIN_TURN_MARGIN });
    return await addMath(png, ocr, { math: 'auto', calibrate: false }, engines);
  } finally {
    await pdf.cleanup();
  }
}
