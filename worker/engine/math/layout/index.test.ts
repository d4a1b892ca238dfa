import { describe, expect, it } from 'vitest';
import { normaliseLatex } from '../latex-normalise.js';
import { RULE, type MathSymbol } from '../types.js';
import { parseLayout } from './index.js';
import {
  accent,
  bigop,
  cdots,
  fenced,
  fn,
  frac,
  g,
  grid,
  ldots,
  row,
  scripts,
  sqrt,
  sub,
  sup,
  typeset,
  type Item,
} from '../../../../test/support/typesetter.js';

const SEEDS = [1, 2, 3];

/** Parses the typeset item PDF-style and image-style (three jitter seeds) and expects the LaTeX each time. */
function expectParse(item: Item, expected: string): void {
  const want = normaliseLatex(expected);
  expect(normaliseLatex(parseLayout(typeset(item, 'pdf')).latex), 'pdf').toBe(want);
  for (const seed of SEEDS) expect(normaliseLatex(parseLayout(typeset(item, 'image', seed)).latex), `image seed ${seed}`).toBe(want);
}

describe('parseLayout: scripts', () => {
  it('reads a superscript and a subscript', () => {
    expectParse(row(sup('x', '2'), '+', sub('y', 'i')), 'x^{2}+y_{i}');
  });
  it('reads both scripts on one base', () => expectParse(scripts('x', 'i', '2'), 'x_{i}^{2}'));
  it('reads a script of a script', () => {
    expectParse(sup('e', sup('x', '2')), 'e^{x^{2}}');
    expectParse(sub('x', sup('i', '2')), 'x_{i^{2}}');
  });
  it('keeps the scripts of scripts apart when a base has both', () =>
    expectParse(row(bigop('\\int', sub('a', '1'), sup('b', '2'), false), 'x'), '\\int_{a_{1}}^{b^{2}}x'));
  it('reads a negative subscript', () => expectParse(row(sub('a', row('-', '1')), '+', sub('b', 'k')), 'a_{-1}+b_{k}'));
  it('reads a multi-symbol subscript and what follows it', () => expectParse(row(sub('a', 'n+1'), '=', sub('a', 'n'), '+', '1'), 'a_{n+1}=a_{n}+1'));
  it('keeps x^{2}y apart from x^{2y}', () => {
    expectParse(row(sup('x', '2'), 'y'), 'x^{2}y');
    expectParse(sup('x', '2y'), 'x^{2y}');
  });
  it('reads primes', () => expectParse(row(sup('f', g('\\prime')), '(x)'), "f'(x)"));
  it('reads a minus raised after a base as its superscript, though its em is borrowed (an ion at 150 dpi, boxes in pixels)', () => {
    const at = (latex: string, x0: number, y0: number, x1: number, y1: number, style?: 'upright'): MathSymbol => ({
      latex,
      box: { x0, y0, x1, y1 },
      confidence: 0.95,
      style,
    });
    const symbols = [at('[', 107, 7, 110, 28), at('A', 111, 8, 125, 23, 'upright'), at(RULE, 127, 11, 137, 12), at(']', 140, 7, 143, 28)];
    expect(parseLayout(symbols).latex).toBe('[A^{-}]');
  });
});

describe('parseLayout: fractions and rules', () => {
  it('reads a fraction', () => expectParse(frac('a', 'b'), '\\frac{a}{b}'));
  it('reads nested fractions', () => expectParse(frac(frac('1', 'x'), row('1', '-', frac('1', 'y'))), '\\frac{\\frac{1}{x}}{1-\\frac{1}{y}}'));
  it('reads a fraction inside a script', () => expectParse(sup('e', frac('1', '2')), 'e^{\\frac{1}{2}}'));
  it('tells a minus sign from a fraction bar', () => expectParse(row('a', '-', frac('b', 'c'), '-', 'd'), 'a-\\frac{b}{c}-d'));
  it('reads an overline as wide as its body and a shorter bar over one symbol', () => {
    expectParse(row(accent(RULE, 'AB'), '=', 'c'), '\\overline{AB}=c');
    expectParse(row(accent(RULE, 'x'), '+', 'y'), '\\overline{x}+y');
    expectParse(row(accent('\\bar', 'x'), '+', 'y'), '\\bar{x}+y');
  });
});

describe('parseLayout: roots', () => {
  it('reads a square root', () => expectParse(row(sqrt('x'), '+', '1'), '\\sqrt{x}+1'));
  it('reads an n-th root', () => expectParse(sqrt('x', '3'), '\\sqrt[3]{x}'));
  it('reads an n-th root of a sum', () => expectParse(sqrt(row(sup('a', '2'), '+', sup('b', '2')), 'n'), '\\sqrt[n]{a^{2}+b^{2}}'));
  it('reads a root with scripts and a fraction inside', () => expectParse(sqrt(frac(sup('a', '2'), 'b')), '\\sqrt{\\frac{a^{2}}{b}}'));
});

describe('parseLayout: big operators', () => {
  it('reads a sum with limits above and below', () => expectParse(row(bigop('\\sum', 'i=1', 'n'), sub('x', 'i')), '\\sum_{i=1}^{n}x_{i}'));
  it('reads a product with limits', () => expectParse(bigop('\\prod', 'k=1', 'n'), '\\prod_{k=1}^{n}'));
  it('reads an integral with scripts', () => expectParse(row(bigop('\\int', '0', '1', false), 'f(x)', fn('d'), 'x'), '\\int_{0}^{1}f(x)dx'));
  it('reads a contour integral', () => expectParse(row(bigop('\\oint', 'C', null, false), 'f'), '\\oint_{C}f'));
  it('reads lim with its limit underneath', () =>
    expectParse(row(bigop(fn('lim'), 'n\\rightarrow\\infty', null), sub('a', 'n')), '\\lim_{n\\rightarrow\\infty}a_{n}'));
  it('keeps the limits of side-by-side operators apart', () => {
    expectParse(row(bigop('\\sum', 'n=0', '\\infty'), bigop('\\sum', 'm=-n', 'n'), 'f'), '\\sum_{n=0}^{\\infty}\\sum_{m=-n}^{n}f');
    expectParse(row(bigop('\\sum', 'l=0', 'n'), bigop('\\prod', 'i\\in I', null), 'b'), '\\sum_{l=0}^{n}\\prod_{i\\in I}b');
  });
  it('reads a sum followed by a fraction', () => expectParse(row(bigop('\\sum', 'i=1', 'n'), frac('1', sup('i', '2'))), '\\sum_{i=1}^{n}\\frac{1}{i^{2}}'));
});

describe('parseLayout: delimiters, matrices and cases', () => {
  it('reads tall parentheses around a fraction', () => expectParse(fenced('(', frac('a', 'b'), ')'), '\\left(\\frac{a}{b}\\right)'));
  it('reads norms side by side, not the bars between them as a determinant', () => {
    // A fraction's numerator as a PDF sets it (text-style limits beside tall bars): latex x0 y0 x1 y1.
    const glyphs = `
\\| 154.4 292.1 156.5 305.9
Y 158.1 295.7 164.1 300.9
\\tilde 159.7 293.9 162.5 294.7
i 163.2 298.4 165.0 302.0
( 166.9 295.2 168.8 302.7
k 169.9 295.7 173.6 300.9
) 174.6 295.2 176.6 302.7
\\| 178.6 292.0 180.7 305.9
2 182.3 291.3 185.0 294.8
+ 188.4 296.2 193.9 301.7
j 196.6 304.0 199.1 308.6
\\sum 198.8 295.2 206.4 302.7
= 200.3 305.4 204.7 306.9
q 201.3 291.1 203.9 294.4
1 206.0 304.0 208.1 307.5
\\| 211.4 292.1 213.5 305.9
Z 215.3 295.7 220.7 300.9
\\tilde 217.2 293.9 219.9 294.7
j 220.7 298.4 223.2 303.0
( 225.3 295.2 227.2 302.7
k 228.3 295.7 232.0 300.9
) 233.0 295.2 235.0 302.7
\\| 237.0 292.0 239.1 305.9
2 240.8 291.3 243.4 294.8`;
    const symbols: MathSymbol[] = glyphs
      .trim()
      .split('\n')
      .map((line) => {
        const [latex, x0, y0, x1, y1] = line.split(' ');
        return { latex: latex!, box: { x0: +x0!, y0: +y0!, x1: +x1!, y1: +y1! }, confidence: 1 };
      });
    expect(normaliseLatex(parseLayout(symbols).latex)).toBe(normaliseLatex('\\|\\tilde{Y}_{i}(k)\\|^{2}+\\sum_{j=1}^{q}\\|\\tilde{Z}_{j}(k)\\|^{2}'));
  });
  it('reads a column vector', () => expectParse(fenced('(', grid([['x'], ['y']]), ')'), '\\begin{pmatrix}x \\\\ y\\end{pmatrix}'));
  it('reads a pmatrix', () =>
    expectParse(
      fenced(
        '(',
        grid([
          ['1', '0'],
          ['0', '1'],
        ]),
        ')',
      ),
      '\\begin{pmatrix}1 & 0 \\\\ 0 & 1\\end{pmatrix}',
    ));
  it('reads a bmatrix with expressions in cells', () =>
    expectParse(
      fenced(
        '[',
        grid([
          ['a+b', sup('c', '2')],
          ['-d', '0'],
        ]),
        ']',
      ),
      '\\begin{bmatrix}a+b & c^{2} \\\\ -d & 0\\end{bmatrix}',
    ));
  it('reads a determinant', () =>
    expectParse(
      fenced(
        '|',
        grid([
          ['a', 'b'],
          ['c', 'd'],
        ]),
        '|',
      ),
      '\\begin{vmatrix}a & b \\\\ c & d\\end{vmatrix}',
    ));
  it('reads cases', () =>
    expectParse(
      row(
        'f(x)=',
        fenced(
          '\\{',
          grid(
            [
              ['x', row('x', '\\geq', '0')],
              ['-x', row('x', '<', '0')],
            ],
            'left',
            1.2,
          ),
          '.',
        ),
      ),
      'f(x)=\\begin{cases}x & x\\geq0 \\\\ -x & x<0\\end{cases}',
    ));
});

describe('parseLayout: accents, words and dots', () => {
  it('reads accents on single symbols', () => {
    expectParse(row(accent('\\hat', 'x'), '+', accent('\\vec', 'v')), '\\hat{x}+\\vec{v}');
    expectParse(row(accent('.', 'x'), '=', 'v'), '\\dot{x}=v');
  });
  it('reads function names', () => expectParse(row(fn('sin'), 'x', '+', fn('log'), 'y'), '\\sin x+\\log y'));
  it('reads an upright word that only contains a function name as a word (PDF glyphs say upright)', () => {
    const pdf = (item: Item) => normaliseLatex(parseLayout(typeset(item, 'pdf')).latex);
    expect(pdf(row(fn('atanh'), '(', 'x', ')'))).toBe(normaliseLatex('\\text{atanh}(x)'));
    expect(pdf(row(fn('ln'), fn('ln'), 'x'))).toBe(normaliseLatex('\\ln\\ln x'));
    // An upright constant a thin space before an operator name (`2\mathrm{i}\,\sin x`) is no word.
    const thin: Item = (size) => ({ width: size / 6, height: 0, depth: 0, draw: () => undefined });
    const constant = pdf(row('2', g('i', true), thin, fn('sin'), 'x'));
    expect(constant).toContain('\\sin');
    expect(constant).not.toContain('\\text');
    // …and a thin space parts upright letters before an italic one (`\mathrm{i}\,\mathrm{d}y`).
    const differential = pdf(row(g('i', true), thin, g('d', true), 'y'));
    expect(differential).not.toContain('\\text');
  });
  it('reads a function name with a script', () => expectParse(row(sup(fn('cos'), '2'), '\\theta'), '\\cos^{2}\\theta'));
  it('tells \\cdot from a full stop', () => expectParse(row('a', g('\\cdot'), 'b', g('.')), 'a\\cdot b.'));
  it('reads \\ldots and \\cdots', () => {
    expectParse(row('1', ',', '2', ',', ldots), '1,2,\\ldots');
    expectParse(row('a', '+', cdots, '+', 'z'), 'a+\\cdots+z');
  });
});

describe('parseLayout: combinations', () => {
  it('reads the quadratic formula', () =>
    expectParse(row('x=', frac(row('-b', '\\pm', sqrt(row(sup('b', '2'), '-', '4ac'))), '2a')), 'x=\\frac{-b\\pm\\sqrt{b^{2}-4ac}}{2a}'));
  it('reads a Gaussian integral', () =>
    expectParse(row(bigop('\\int', '0', '\\infty', false), sup('e', row('-', sup('x', '2'))), fn('d'), 'x'), '\\int_{0}^{\\infty}e^{-x^{2}}dx'));
  it('reads the derivative as a limit', () =>
    expectParse(
      row(sup('f', g('\\prime')), '(x)=', bigop(fn('lim'), 'h\\rightarrow0', null), frac('f(x+h)-f(x)', 'h')),
      "f'(x)=\\lim_{h\\rightarrow0}\\frac{f(x+h)-f(x)}{h}",
    ));
  it('reads the identity matrix', () =>
    expectParse(
      fenced(
        '(',
        grid([
          ['1', '0'],
          ['0', '1'],
        ]),
        ')',
      ),
      '\\begin{pmatrix}1 & 0 \\\\ 0 & 1\\end{pmatrix}',
    ));
});
