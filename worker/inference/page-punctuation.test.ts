import { beforeAll, describe, expect, it } from 'vitest';
import { assemblePage } from '../../page/assemble.js';
import { renderLatex } from '../../test/support/render-latex.js';
import { createMathRecognizer } from '../engine/math/index.js';
import { SymbolClassifier } from '../engine/math/image/classifier.js';
import { loadHandwritingClassifier, symbolsFromEitherHand } from '../engine/math/image/handwriting.js';
import { loadScanClassifier } from '../engine/math/image/scan-classifier.js';
import { normaliseLatex } from '../engine/math/latex-normalise.js';
import { TextRecognizer } from '../engine/text/index.js';
import { MATH_MIN_TURN_MARGIN } from './index.js';
import { addMath, type MathEngines } from './math-page.js';

const PROSE = 'Words of a paragraph that runs across the whole width of the text block, so that the page has prose lines.';

/**
 * Displays on a page typeset by pdflatex and rasterised at 200 dpi, as a scanned copy of a paper
 * gives them (models/eval/texdoc/scanned.ts), read by the inference path with the classifiers the
 * inference role loads. What matters here is the punctuation that closes a display.
 */
describe('punctuation closing a display on a 200 dpi page', () => {
  let displays: string[] = [];
  const sources = [
    '\\nabla\\times\\vec{E}=-\\frac{\\partial\\vec{B}}{\\partial t}.',
    'A=4-\\frac{8}{3}=\\frac{4}{3}.',
    '\\nabla\\times\\vec{B}=\\frac{1}{c^{2}}\\frac{\\partial\\vec{E}}{\\partial t}.',
  ];
  beforeAll(async () => {
    const recognizer = await TextRecognizer.load();
    const printed = await SymbolClassifier.load({ intraOpThreads: 1 });
    const classifiers = { printed, scanned: await loadScanClassifier(), handwritten: await loadHandwritingClassifier() };
    const engines: MathEngines = {
      math: createMathRecognizer({ imageClassifier: printed, scanClassifier: classifiers.scanned }),
      symbols: (image, handwriting) => symbolsFromEitherHand(image, classifiers, handwriting),
    };
    const png = await renderLatex([PROSE, ...sources.flatMap((source) => [`\\[ ${source} \\]`, PROSE])].join('\n'), 200);
    const ocr = await recognizer.recognize(png, { minTurnMargin: MATH_MIN_TURN_MARGIN });
    const page = assemblePage(await addMath(png, ocr, { math: 'auto' }, engines));
    displays = page.lines.filter((line) => line.kind === 'math').map((line) => normaliseLatex(line.math?.latex ?? ''));
  }, 120_000);

  it('reads the period after a fraction on the line, not as its subscript', () => {
    // Labelled `\cdot` by the classifier, the period was measured at the axis, 0.2 em below where it stands.
    expect(displays).toEqual(sources.map(normaliseLatex));
  });
});
