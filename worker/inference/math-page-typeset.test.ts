import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PageLine } from '../../page/model.js';
import { formulaImages } from '../../test/support/formula-images.js';
import { createMathRecognizer } from '../engine/math/index.js';
import { SymbolClassifier } from '../engine/math/image/classifier.js';
import { loadHandwritingClassifier, symbolsFromEitherHand } from '../engine/math/image/handwriting.js';
import { normaliseLatex } from '../engine/math/latex-normalise.js';
import type { GrayImage } from '../engine/math/types.js';
import { TextRecognizer } from '../engine/text/index.js';
import { DEFAULT_RATE_THRESHOLD, judge, loadFormulaConfidence } from './formula-confidence.js';
import { MATH_MIN_TURN_MARGIN } from './index.js';
import { InkKindClassifier } from './ink-kind.js';
import { addMath, type MathEngines } from './math-page.js';

/**
 * Formulas typeset by pdflatex, each alone in an image, read by the page step as POST /v3/text
 * reads them (the real text model, symbol classifiers, ink kind and formula-confidence model):
 * each must come back as one maths line that the default confidence_rate_threshold (0.75) lets
 * through. Each once failed on the way although the maths engine read it right:
 * - `P(X=k)=\frac{\lambda^k e^{-\lambda}}{k!}`: the text model reads the fraction's pieces as
 *   `e->` over `P(X =k)` over `k!`, which looked like a run of code lines (`->`) to codeRuns and
 *   was kept as a code block, unread as maths;
 * - `H=-\sum_i p_i\log_2 p_i` and `\mathrm{MnO}_4^-`: the confidence model's second read, at twice
 *   the size, read `lOg` (an `o` between subscripts measured as an `O`) and `\overline{4}` (the
 *   script minus over the subscript), and a read that changes with its scale is judged unsure;
 * - `\mathrm{NaCl}`: no structure, so the text model's `NaCI` was kept.
 */
const FORMULAS = ['P(X=k)=\\frac{\\lambda^{k}e^{-\\lambda}}{k!}', 'H=-\\sum_{i}p_{i}\\log_{2}p_{i}', '\\mathrm{MnO}_{4}^{-}', '\\mathrm{NaCl}'];

describe('a typeset formula alone in an image, read by the page step', () => {
  const images = formulaImages(FORMULAS, 'chemistry');
  let readPage: (gray: GrayImage) => Promise<PageLine[]>;
  beforeAll(async () => {
    const recognizer = await TextRecognizer.load();
    const printed = await SymbolClassifier.load({ intraOpThreads: 1 });
    const classifiers = { printed, handwritten: await loadHandwritingClassifier() };
    const confidence = await loadFormulaConfidence();
    const engines: MathEngines = {
      math: createMathRecognizer({ imageClassifier: printed, handwritingClassifier: classifiers.handwritten }),
      symbols: (image, handwriting) => symbolsFromEitherHand(image, classifiers, handwriting),
      inkKind: await InkKindClassifier.load(),
      formulaConfidence: (features) => judge(confidence, features),
    };
    readPage = async (gray) => {
      const raw = { raw: { width: gray.width, height: gray.height, channels: 1 as const } };
      const png = await sharp(Buffer.from(gray.data), raw).png().toBuffer();
      const ocr = await recognizer.recognize(png, { minTurnMargin: MATH_MIN_TURN_MARGIN });
      return (await addMath(png, ocr, { math: 'auto' }, engines)).lines;
    };
  }, 120_000);

  // Rows of an align, each of which the text model and the band cut read apart: the second row's
  // `m_{y}` beside a fraction was taken for the word `my`, its `=` for marks over the fraction.
  const ROWS = ['m_{x}&=\\frac{\\sqrt{3}}{2}(S_{b}-S_{c}),\\\\m_{y}&=\\frac{3}{2}S_{a}-\\frac{1}{2}.'];
  const rows = formulaImages(ROWS, 'physics', { page: (f) => `\\begin{align*}${f.latex}\\end{align*}`, paperHeightIn: 6 });

  it('reads an image of a few rows of maths whole when that read is likelier right than the rows apart', async () => {
    const [crop] = await rows.crops(150);
    const lines = await readPage(crop!);
    expect(lines.map((l) => [l.kind, l.math && normaliseLatex(l.math.latex)])).toEqual([['math', normaliseLatex(`\\begin{aligned}${ROWS[0]}\\end{aligned}`)]]);
  }, 120_000);

  it('is one maths line the default threshold lets through, whatever the text model made of it', async () => {
    const crops = await images.crops(150);
    for (const [i, crop] of crops.entries()) {
      const lines = await readPage(crop);
      expect.soft(lines.map((l) => [l.kind, l.math && normaliseLatex(l.math.latex)])).toEqual([['math', normaliseLatex(FORMULAS[i]!)]]);
      expect.soft(lines[0]?.math?.calibrated?.rate ?? 0, FORMULAS[i]).toBeGreaterThanOrEqual(DEFAULT_RATE_THRESHOLD);
    }
  }, 120_000);
});
