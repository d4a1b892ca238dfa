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
import { InkKindClassifier } from './ink-kind.js';
import { addMath, type MathEngines } from './math-page.js';

const PROSE = 'Words of a paragraph that runs across the whole width of the text block, so that the page has prose lines.';

/**
 * Displays on a page typeset by pdflatex and rasterised at 200 dpi, as a scanned copy of a paper
 * gives them (models/eval/texdoc/scanned.ts), read by the inference path with the classifiers the
 * inference role loads: the punctuation that closes a display or separates its parts, and letters
 * the classifier half took for another alphabet's.
 */
describe('symbols of displays on a 200 dpi page', () => {
  let readPage: (sources: string[], packages?: string[]) => Promise<string[]>;
  beforeAll(async () => {
    const recognizer = await TextRecognizer.load();
    const printed = await SymbolClassifier.load({ intraOpThreads: 1 });
    const classifiers = { printed, scanned: await loadScanClassifier(), handwritten: await loadHandwritingClassifier() };
    const engines: MathEngines = {
      math: createMathRecognizer({ imageClassifier: printed, scanClassifier: classifiers.scanned }),
      symbols: (image, handwriting) => symbolsFromEitherHand(image, classifiers, handwriting),
      // The page's ink kind picks the symbol classifier, as in the inference role: unknown, a row the
      // typeset classifier reads unsurely is read by the handwriting classifier too.
      inkKind: await InkKindClassifier.load(),
    };
    readPage = async (sources, packages = []) => {
      const png = await renderLatex([PROSE, ...sources.flatMap((source) => [`\\[ ${source} \\]`, PROSE])].join('\n'), 200, 6, 9, packages);
      const ocr = await recognizer.recognize(png, { minTurnMargin: MATH_MIN_TURN_MARGIN });
      const page = assemblePage(await addMath(png, ocr, { math: 'auto' }, engines));
      return page.lines.filter((line) => line.kind === 'math').map((line) => normaliseLatex(line.math?.latex ?? ''));
    };
  }, 120_000);

  it('reads the period after a fraction, and the comma after \\ldots, on the line', async () => {
    // Labelled `\cdot` by the classifier, the period was measured at the axis, 0.2 em below where it
    // stands, and became the fraction's subscript; a comma after `\ldots` became its last dot's superscript.
    const sources = [
      '\\nabla\\times\\vec{E}=-\\frac{\\partial\\vec{B}}{\\partial t}.',
      'A=4-\\frac{8}{3}=\\frac{4}{3}.',
      '\\nabla\\times\\vec{B}=\\frac{1}{c^{2}}\\frac{\\partial\\vec{E}}{\\partial t}.',
      'i=1,2,\\ldots,n',
    ];
    expect(await readPage(sources)).toEqual(sources.map(normaliseLatex));
  }, 60_000);

  it('reads commas the classifier took for primes as commas (Palatino)', async () => {
    // mathpazo's comma reads as a prime with no comma among the runner-ups; on the line it became a subscript prime.
    const sources = ['f(a_1,a_2,a_3,\\ldots),[a_1,b_1]\\cup[a_2,b_2]', '\\Lambda(x)=\\lambda_{\\max}^{1-q}(x),1<p\\leq 2,', 'u(a_i)=u(b_i)=0,u(t)\\neq 0'];
    expect(await readPage(sources, ['mathpazo'])).toEqual(sources.map(normaliseLatex));
  }, 60_000);

  it("reads Palatino's italic x, a calligraphic capital to the classifier's second guess, as x", async () => {
    // Picked by its size, the runner-up `x` had kept the top label's calligraphic style: `\mathcal{x}`, which does not exist.
    const sources = ["u''+c(x)u=0", 'f_y(x,y)b'];
    expect(await readPage(sources, ['mathpazo'])).toEqual(sources.map(normaliseLatex));
  }, 60_000);

  it('reads long and double arrows by their length and shafts, not as the short arrows the classifier knows', async () => {
    // The classifier has six one-em arrows and no \Leftarrow: `\implies` was read \rightarrow,
    // `\longrightarrow` \rightarrow, `\iff` \Leftrightarrow, `\Longleftarrow` \leftarrow.
    const sources = ['x>0\\implies x^{2}>0', 'u_{n}\\longrightarrow u', 'A\\Longleftarrow B', 'f(x)=0\\iff x=1'];
    expect(await readPage(sources)).toEqual(sources.map(normaliseLatex));
  }, 60_000);

  it("reads Palatino's c, x and p beside their own scripts as letters, not as capitals of the script line (Palatino)", async () => {
    // The sure subscript `i` of `c_{i}` was the only neighbour measuring c and x: on its line they
    // stood as tall as capitals (`\mathcal{C}_{i}(\mathcal{X})`), and `^{p_{i}-2}`'s p read r.
    const sources = ['g(x)=\\sum_{k=1}^{n}c_{k}(x)|z|^{p_{k}-2}z', 'F(x)=|y|^{p_{i}-p}c_{i}(x)', '\\Phi(t)=\\sum_{i}c_{i}(t)\\,t^{p_{i}-1}'];
    expect(await readPage(sources, ['mathpazo'])).toEqual(sources.map(normaliseLatex));
  }, 60_000);

  it("keeps Times' script 1 whole: a blob narrower than three strokes is one glyph, not two touching (Times)", async () => {
    // Read unsurely, the subscript 1 (5 pixels wide) was cut through its stem into `]` and `\lfloor`.
    const sources = ['\\overline{z_{1}z_{2}}=w', 'S=a_{1}+a_{2}+\\cdots+a_{n}'];
    expect(await readPage(sources, ['mathptmx'])).toEqual(sources.map(normaliseLatex));
  }, 60_000);

  it("reads Times' script 1 as the digit, not an upright l (Times)", async () => {
    // The classifier gave the subscript 1 `\mathrm{l}` at 0.49 against 0.43: `y_{l}`, `\sum_{i=l}^{n}`.
    const sources = ['x_{1}+x_{2}=y_{1}', '\\bar{x}=\\frac{1}{n}\\sum_{i=1}^{n}x_{i}'];
    expect(await readPage(sources, ['mathptmx'])).toEqual(sources.map(normaliseLatex));
  }, 60_000);

  it("reads Times' display sum with limits over and under it as \\sum, not the letter Sigma (Times)", async () => {
    // Smaller than Computer Modern's, the display sum was read `\Sigma` and its limits set over and under a letter.
    const sources = ['\\sum_{k=0}^{\\infty}\\frac{x^{k}}{k!}=e^{x}'];
    expect(await readPage(sources, ['mathptmx'])).toEqual(sources.map(normaliseLatex));
  }, 60_000);
});
