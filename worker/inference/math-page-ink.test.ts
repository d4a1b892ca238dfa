import { beforeAll, describe, expect, it } from 'vitest';
import { HANDWRITING_THRESHOLD, readAsHandwriting } from '../../page/model.js';
import { renderLatex } from '../../test/support/render-latex.js';
import { createMathRecognizer } from '../engine/math/index.js';
import { SymbolClassifier } from '../engine/math/image/classifier.js';
import { loadHandwritingClassifier, SURELY_HANDWRITTEN, symbolsFromEitherHand } from '../engine/math/image/handwriting.js';
import { InkKindClassifier } from './ink-kind.js';
import { addMath, type MathEngines } from './math-page.js';

/**
 * is_handwritten follows the route, not the ink-kind score alone. Ink kind was trained on MathJax
 * fonts and scores some pdflatex formulas unsure (0.5–0.9); the typeset classifier is sure of
 * them, so the route reads them as print, and the page must then read as printed
 * (readAsHandwriting, /v3/text's is_handwritten). Real models.
 */
describe('the ink kind a formula image reports', () => {
  let engines: MathEngines;
  beforeAll(async () => {
    const printed = await SymbolClassifier.load({ intraOpThreads: 1 });
    const classifiers = { printed, handwritten: await loadHandwritingClassifier() };
    engines = {
      math: createMathRecognizer({ imageClassifier: printed }),
      symbols: (image, handwriting) => symbolsFromEitherHand(image, classifiers, handwriting),
      inkKind: await InkKindClassifier.load(),
    };
  }, 60_000);

  it('is printed for a typeset formula ink kind is unsure of, read as print by the route', async () => {
    const png = await renderLatex('\\[ \\text{CO}_{2} \\]');
    const ocr = { lines: [], width: 0, height: 0, rotation: 0 as const, rotationConfidence: 1, skew: 0 };
    const page = await addMath(png, ocr, { math: 'formula' }, engines);
    expect(page.handwriting).toBeGreaterThanOrEqual(HANDWRITING_THRESHOLD);
    expect(page.handwriting).toBeLessThan(SURELY_HANDWRITTEN);
    expect(page.formula?.handwritten).toBeUndefined();
    expect(readAsHandwriting(page)).toBe(false);
  }, 60_000);
});
