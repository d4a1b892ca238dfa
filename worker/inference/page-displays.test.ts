import { beforeAll, describe, expect, it } from 'vitest';
import { assemblePage } from '../../page/assemble.js';
import { linesToMmd } from '../../page/render/image-page.js';
import { renderLatex } from '../../test/support/render-latex.js';
import { createMathRecognizer } from '../engine/math/index.js';
import { SymbolClassifier } from '../engine/math/image/classifier.js';
import { loadHandwritingClassifier, symbolsFromEitherHand } from '../engine/math/image/handwriting.js';
import type { MathSymbol } from '../engine/math/types.js';
import { TextRecognizer } from '../engine/text/index.js';
import { splitEquationNumber } from './equation-number.js';
import { MATH_MIN_TURN_MARGIN } from './index.js';
import { addMath, type MathEngines } from './math-page.js';

/** Symbols on one row, each `width` wide and 20 high, starting at the given x. */
const row = (...items: [string, number][]): MathSymbol[] =>
  items.map(([latex, x]) => ({ latex, box: { x0: x, y0: 10, x1: x + 10, y1: 30 }, confidence: 0.99 }));

describe('splitEquationNumber', () => {
  it('takes a parenthesised number at the margin out of the formula', () => {
    const { symbols, tag } = splitEquationNumber(row(['x', 0], ['=', 12], ['0', 24], ['(', 200], ['1', 210], [')', 220]));
    expect(tag).toBe('1');
    expect(symbols.map((s) => s.latex)).toEqual(['x', '=', '0']);
    expect(splitEquationNumber(row(['a', 0], ['(', 100], ['2', 110], ['.', 118], ['3', 124], ['b', 134], [')', 144])).tag).toBe('2.3b');
  });

  it('takes one at the left margin too (leqno)', () => {
    const { symbols, tag } = splitEquationNumber(row(['(', 0], ['4', 10], [')', 20], ['y', 200], ['=', 212], ['1', 224]));
    expect(tag).toBe('4');
    expect(symbols.map((s) => s.latex)).toEqual(['y', '=', '1']);
  });

  it("takes a number alone on rows of its own at the margin out too, the row's own number first", () => {
    const lower = (items: MathSymbol[]) => items.map((s) => ({ ...s, box: { ...s.box, y0: s.box.y0 + 40, y1: s.box.y1 + 40 } }));
    // grid's gather: `… = z_{i}^{n}  (13)` over an empty row numbered (14), read as one row of ink.
    const stacked = [
      ...row(['x', 0], ['=', 12], ['0', 24], ['(', 200], ['1', 210], ['3', 218], [')', 228]),
      ...lower(row(['(', 200], ['1', 210], ['4', 218], [')', 228])),
    ];
    const { symbols, tag } = splitEquationNumber(stacked);
    expect(tag).toBe('13');
    expect(symbols.map((s) => s.latex)).toEqual(['x', '=', '0']);
    // A parenthesised script alone on its rows (`y = f^{(4)}`) is no number, beside the row's own or not.
    const raise = (items: MathSymbol[]) => items.map((s) => ({ ...s, box: { ...s.box, y0: s.box.y0 - 25, y1: s.box.y1 - 25 } }));
    const script = [...row(['y', 0], ['=', 12], ['f', 24]), ...raise(row(['(', 36], ['4', 46], [')', 56]))];
    const withNumber = splitEquationNumber([...script, ...row(['(', 200], ['1', 210], [')', 220])]);
    expect([withNumber.tag, withNumber.symbols.map((s) => s.latex)]).toEqual(['1', ['y', '=', 'f', '(', '4', ')']]);
    expect(splitEquationNumber(script)).toEqual({ symbols: script });
  });

  it('leaves a parenthesised factor or argument, set close to what precedes it, in the formula', () => {
    for (const items of [
      row(['f', 0], ['(', 12], ['1', 22], [')', 32]),
      row(['x', 0], ['=', 12], ['2', 24], ['(', 38], ['3', 48], [')', 58]),
      row(['(', 200], ['1', 210], [')', 220]),
      row(['x', 0], ['(', 200], ['y', 210], ['+', 220], ['1', 230], [')', 240]),
    ]) {
      expect(splitEquationNumber(items).tag).toBeUndefined();
      expect(splitEquationNumber(items).symbols).toHaveLength(items.length);
    }
  });
});

describe('a display on a typeset page image', () => {
  let engines: MathEngines;
  let recognizer: TextRecognizer;
  beforeAll(async () => {
    recognizer = await TextRecognizer.load();
    const printed = await SymbolClassifier.load({ intraOpThreads: 1 });
    const classifiers = { printed, handwritten: await loadHandwritingClassifier() };
    engines = {
      math: createMathRecognizer({ imageClassifier: printed }),
      symbols: (image, handwriting) => symbolsFromEitherHand(image, classifiers, handwriting),
    };
  }, 120_000);

  const readPage = async (body: string) => {
    const png = await renderLatex(body);
    const ocr = await recognizer.recognize(png, { minTurnMargin: MATH_MIN_TURN_MARGIN });
    return assemblePage(await addMath(png, ocr, { math: 'auto' }, engines));
  };
  const prose = 'Here is a sentence of ordinary prose that runs across the whole width of the page.';

  it("joins the rows of an align into one aligned display, and a gather's into one gathered", async () => {
    const aligned = await readPage(`${prose}\\begin{align*} f(x) &= x^{2}+x \\\\ g(x) &= 2x+1 \\end{align*} ${prose}`);
    expect(aligned.lines.filter((l) => l.kind === 'math').map((l) => l.math?.latex)).toEqual(['\\begin{aligned}f(x)&=x^{2}+x\\\\g(x)&=2x+1\\end{aligned}']);
    const derivation = await readPage(`${prose}\\begin{align*} f(x) &= (x+1)(x-1) \\\\ &= x^{2}-1 \\end{align*} ${prose}`);
    expect(derivation.lines.filter((l) => l.kind === 'math').map((l) => l.math?.latex)).toEqual([
      '\\begin{aligned}f(x)&=(x+1)(x-1)\\\\&=x^{2}-1\\end{aligned}',
    ]);
    const gathered = await readPage(`${prose}\\begin{gather*} a+b=c \\\\ x=y+zz \\end{gather*} ${prose}`);
    expect(gathered.lines.filter((l) => l.kind === 'math').map((l) => l.math?.latex)).toEqual(['\\begin{gathered}a+b=c\\\\x=y+zz\\end{gathered}']);
  }, 120_000);

  it('carries a row opening with an operator on in the aligned display', async () => {
    // A derivation's `&\\quad + …` row has no relation of its own: it had made the whole display gathered.
    const page = await readPage(`${prose}\\begin{align*} f(x) &= (x+1)(x-1) \\\\ &= x^{2}-1 \\\\ &\\quad + 2x \\end{align*} ${prose}`);
    expect(page.lines.filter((l) => l.kind === 'math').map((l) => l.math?.latex)[0]).toBe(
      '\\begin{aligned}f(x)&=(x+1)(x-1)\\\\&=x^{2}-1\\\\&+2x\\end{aligned}',
    );
  }, 120_000);

  it("joins a multline's rows, which stand at either margin, into one gathered display", async () => {
    const page = await readPage(`${prose}\\begin{multline*} a+b+c+d+e+f+g+h+i+j+k \\\\ =l+m+n+o+p+q \\end{multline*} ${prose}`);
    expect(page.lines.filter((l) => l.kind === 'math').map((l) => l.math?.latex)).toEqual([
      '\\begin{gathered}a+b+c+d+e+f+g+h+i+j+k\\\\=l+m+n+o+p+q\\end{gathered}',
    ]);
  }, 120_000);

  it('keeps displays parted by prose apart', async () => {
    const page = await readPage(`${prose}\\[ a+b=c \\] ${prose} \\[ x=y \\] ${prose}`);
    expect(page.lines.filter((l) => l.kind === 'math').map((l) => l.math?.latex)).toEqual(['a+b=c', 'x=y']);
  }, 120_000);

  it('keeps the number out of the LaTeX, as \\tag under include_equation_tags', async () => {
    const png = await renderLatex(
      'The energy of a body at rest is given by the formula below, which holds in every frame.\\begin{equation} E = mc^{2} \\end{equation} And the next paragraph starts here with more words.',
    );
    const ocr = await recognizer.recognize(png, { minTurnMargin: MATH_MIN_TURN_MARGIN });
    const page = await addMath(png, ocr, { math: 'auto' }, engines);
    const maths = page.lines.filter((l) => l.kind === 'math');
    expect(maths.map((l) => [l.math?.latex, l.math?.tag])).toEqual([['E=mc^{2}', '1']]);
    expect(linesToMmd(page.lines, {}, false)).toContain('\\[\nE=mc^{2}\n\\]');
    expect(linesToMmd(page.lines, { include_equation_tags: true }, false)).toContain('E=mc^{2} \\tag{1}');
  }, 120_000);
});
