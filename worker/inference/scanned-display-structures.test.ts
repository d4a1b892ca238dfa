import { beforeAll, describe, expect, it } from 'vitest';
import { assemblePage } from '../../page/assemble.js';
import { pageMathEngines, readScannedPage } from '../../test/support/page-math-engines.js';
import { normaliseLatex } from '../engine/math/latex-normalise.js';
import { TextRecognizer } from '../engine/text/index.js';
import type { MathEngines } from './formula-read.js';

const PROSE = 'Words of a paragraph that runs across the whole width of the text block, so that the page has prose lines.';

/**
 * The structures inside displays of a page typeset by pdflatex and rasterised at 200 dpi, as a
 * scanned copy of a paper gives them (models/eval/texdoc/scanned.ts), read as /v3/pdf reads a
 * scanned page: wide accents over one letter, scripts beside a script-size operator name, a
 * radical beside a relation, where a script ends, the period after a script.
 */
describe('structures of displays on a 200 dpi page', () => {
  let readDisplays: (sources: string[], packages?: string) => Promise<string[]>;
  beforeAll(async () => {
    const recognizer = await TextRecognizer.load();
    const engines: MathEngines = await pageMathEngines();
    readDisplays = async (sources, packages = 'amsmath,amssymb') => {
      const body = [PROSE, ...sources.flatMap((source) => [`\\[ ${source} \\]`, PROSE])].join('\n');
      const page = assemblePage(await readScannedPage(body, { packages }, recognizer, engines));
      return page.lines.filter((line) => line.kind === 'math').map((line) => normaliseLatex(line.math?.latex ?? ''));
    };
  }, 120_000);

  it('reads a wide hat or tilde over one letter as \\widehat or \\widetilde, by its width in em', async () => {
    // The wide accents' smallest size is about 0.55 em of ink, `\hat` and `\tilde` 0.25–0.35 em:
    // over one letter both were read `\hat`/`\tilde`.
    const sources = ['\\tilde{R}+\\widetilde{R}+\\hat{x}+\\widehat{x}', '(\\widetilde{R}(r)|u|^{p-2}u)+\\widetilde{C}(r)=\\tilde{a}'];
    expect(await readDisplays(sources)).toEqual(sources.map(normaliseLatex));
    const palatino = ['(\\widetilde{R}(r)|u|^{p-2}u)+\\widetilde{C}(r)=\\tilde{a}'];
    expect(await readDisplays(palatino, 'amsmath,amssymb,mathpazo')).toEqual(palatino.map(normaliseLatex));
  }, 90_000);

  it('reads a superscript over a script-size operator name as the base’s superscript, not the name’s upper limit', async () => {
    // `1-q` over the subscript `\max` of `\lambda` was taken for the limit over `\max`: `\lambda_{\max^{1-q}}`.
    const sources = ['\\lambda_{\\max}^{1-q}(x)', '\\Lambda(x)=\\lambda_{\\min}\\lambda_{\\max}^{-q}(x)'];
    expect(await readDisplays(sources)).toEqual(sources.map(normaliseLatex));
  }, 90_000);

  it('keeps a radical and the relation after it apart, not one overbrace (Times)', async () => {
    // Times' radical sign (a hook down at its left end, its vinculum along the top) and the `<`
    // set just after it had the shape of a brace's two halves: `\overbrace{2}+x_{k}`, the `<` lost.
    const sources = ['x_{k+1}=\\sqrt{2+x_{k}}<\\sqrt{2+2}=2,', '\\sqrt{a^{2}+b^{2}}\\leq a+b'];
    expect(await readDisplays(sources, 'amsmath,amssymb,mathptmx')).toEqual(sources.map(normaliseLatex));
  }, 90_000);

  it('reads the period after a script, or after fractions alone, as the period on the line', async () => {
    // Its em borrowed from the script, the period continued it as a `\\cdot` (`\\xi_{x,y\\cdot}`); after
    // fractions that know no size of their own, the row's em was their boxes' height and the period
    // stood a `\\cdot` high against it.
    const sources = ['(\\beta_{sp}N)^{1/2}\\xi_{x,y}.', '\\sum_{\\tau}c_{\\tau}^{f}.', '\\frac{1}{S_{12}}\\frac{1}{S_{12}}.', 'x_{1.5}+y_{i\\cdot j}=0'];
    expect(await readDisplays(sources)).toEqual(sources.map(normaliseLatex));
  }, 90_000);

  it('ends a script at an operator whose operand is clearly larger than the script (Palatino)', async () => {
    // Palatino's x, measured from its tall x-height, came out 1.25 em of the line: the `1` of
    // `(x^{2}+1)` and the radical after `x_{k+1}=` were too small beside it to open the line again.
    const sources = ['f(x)=(x^{2}+1)\\sqrt{x^{4}+1}', 'x_{k+1}=\\sqrt{2+x_{k}}<\\sqrt{2+2}=2,', 'e^{x+1}+x^{n+1}-1'];
    expect(await readDisplays(sources, 'amsmath,amssymb,mathpazo')).toEqual(sources.map(normaliseLatex));
  }, 90_000);
});
