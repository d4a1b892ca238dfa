import { describe, expect, it } from 'vitest';
import { normaliseLatex } from '../latex-normalise.js';
import { RULE, type MathSymbol } from '../types.js';
import { parseLayout } from './index.js';
import { accent, fenced, fn, frac, g, grid, row, scripts, sqrt, sup, typeset } from '../../../../test/support/typesetter.js';

const pdf = (item: Parameters<typeof typeset>[0]) => parseLayout(typeset(item, 'pdf'));
const image = (item: Parameters<typeof typeset>[0], seed = 5) => parseLayout(typeset(item, 'image', seed));
/** `(\hat{a})` with a subscript: matrix cells whose script almost touches the hat of the row below. */
const hatted = (script: string) => scripts(row('(', accent('\\hat', 'a'), ')'), script, null);

describe('parseLayout: output', () => {
  it('returns nothing for no symbols', () => {
    expect(parseLayout([])).toEqual({ latex: '', confidence: 0, boxes: [] });
  });

  it('writes compact LaTeX with spaces only where needed', () => {
    expect(pdf(row(sup('x', '2'), '+', '\\alpha', 'x')).latex).toBe('x^{2}+\\alpha x');
    expect(pdf(row(sqrt('x'), '=', frac('a', 'b'))).latex).toBe('\\sqrt{x}=\\frac{a}{b}');
  });

  it('lists the symbols in reading order with the token each became', () => {
    const result = pdf(row(frac('a', 'b'), '-', sup('c', g('\\prime'))));
    expect(result.boxes.map((box) => box.latex)).toEqual(['\\frac', 'a', 'b', '-', 'c', "'"]);
  });

  it('multiplies the symbol probabilities into the confidence', () => {
    const result = image(row('a', '+', 'b'));
    expect(result.confidence).toBeCloseTo(0.95 ** 3, 6);
  });

  it('does not depend on the order the symbols arrive in', () => {
    const symbols = typeset(row('x=', frac(row('-b', '\\pm', sqrt(row(sup('b', '2'), '-', '4ac'))), '2a')), 'pdf');
    expect(parseLayout([...symbols].reverse()).latex).toBe(parseLayout(symbols).latex);
  });
});

describe('parseLayout: more constructs', () => {
  it('reads upright words as text and upright function names as commands (PDF styles)', () => {
    expect(normaliseLatex(pdf(row('x', fn('if'), 'y', fn('max'))).latex)).toBe(normaliseLatex('x\\text{if}y\\max'));
  });

  it('keeps italic letters that spell a function name as variables', () => {
    expect(pdf(row('s', 'i', 'n')).latex).toBe('sin');
  });

  it('reads two stacked rules as an equals sign and rule-dot-dot as division', () => {
    const at = (x0: number, y0: number, x1: number, y1: number, latex: string): MathSymbol => ({ latex, box: { x0, y0, x1, y1 }, confidence: 1 });
    const equals = [at(0, 10, 8, 20, 'a'), at(10, 12, 22, 13, RULE), at(10, 16, 22, 17, RULE), at(24, 10, 32, 20, 'b')];
    expect(parseLayout(equals).latex).toBe('a=b');
    const division = [at(0, 10, 8, 20, 'a'), at(14, 9, 16, 11, '.'), at(10, 14, 20, 15, RULE), at(14, 17, 16, 19, '.'), at(24, 10, 32, 20, 'b')];
    expect(parseLayout(division).latex).toBe('a\\div b');
  });

  it('reads an overline over a sum of symbols and a root inside a fraction', () => {
    expect(normaliseLatex(image(frac(sqrt(row('a', '+', 'b')), accent(RULE, row('x', 'y')))).latex)).toBe(
      normaliseLatex('\\frac{\\sqrt{a+b}}{\\overline{xy}}'),
    );
  });

  it('reads scripts on a tall closing parenthesis', () => {
    expect(normaliseLatex(image(scripts(fenced('(', frac('a', 'b'), ')'), null, '2')).latex)).toBe(normaliseLatex('(\\frac{a}{b})^{2}'));
  });

  it('reads a 3×3 matrix and a matrix of fractions', () => {
    expect(
      normaliseLatex(
        image(
          fenced(
            '[',
            grid([
              ['1', '2', '3'],
              ['4', '5', '6'],
              ['7', '8', '9'],
            ]),
            ']',
          ),
        ).latex,
      ),
    ).toBe(normaliseLatex('\\begin{bmatrix}1&2&3\\\\4&5&6\\\\7&8&9\\end{bmatrix}'));
    expect(
      normaliseLatex(
        pdf(
          fenced(
            '(',
            grid([
              [frac('1', '2'), '0'],
              ['0', frac('a', 'b')],
            ]),
            ')',
          ),
        ).latex,
      ),
    ).toBe(normaliseLatex('\\begin{pmatrix}\\frac{1}{2}&0\\\\0&\\frac{a}{b}\\end{pmatrix}'));
  });

  it('writes the fonts a PDF reports', () => {
    const symbols = typeset(row('x', '\\in', 'R', '+', 'L'), 'pdf').map((symbol) =>
      symbol.latex === 'x'
        ? { ...symbol, style: 'bold' as const }
        : symbol.latex === 'R'
          ? { ...symbol, style: 'blackboard' as const }
          : symbol.latex === 'L'
            ? { ...symbol, style: 'calligraphic' as const }
            : symbol,
    );
    expect(parseLayout(symbols).latex).toBe('\\mathbf{x}\\in\\mathbb{R}+\\mathcal{L}');
  });

  it('merges a \\not slash with the relation it strikes and close integral signs into one', () => {
    const at = (x0: number, y0: number, x1: number, y1: number, latex: string): MathSymbol => ({ latex, box: { x0, y0, x1, y1 }, confidence: 1 });
    expect(parseLayout([at(0, 10, 8, 20, 'a'), at(10, 13, 22, 17, '='), at(13, 8, 19, 22, '\\not'), at(24, 10, 32, 20, '0')]).latex).toBe('a\\neq0');
    expect(normaliseLatex(pdf(row(g('\\int'), g('\\int'), 'f')).latex)).toBe(normaliseLatex('\\iint f'));
  });

  it('tells a binomial from a column vector by the distance of its rows', () => {
    // TeX sets a binomial's parentheses at the display's fraction-delimiter size (2.39 em), its rows 1.36 em apart.
    expect(normaliseLatex(pdf(fenced('(', grid([['n'], ['k']], 'centre', 1.36 / 1.2), ')', 1.095)).latex)).toBe(normaliseLatex('\\binom{n}{k}'));
    expect(normaliseLatex(pdf(fenced('(', grid([['n'], ['k']]), ')')).latex)).toBe(normaliseLatex('\\begin{pmatrix}n\\\\k\\end{pmatrix}'));
  });

  it('reads a matrix whose rows touch across columns (a subscript above a hat) as a matrix, not scripts', () => {
    expect(
      normaliseLatex(
        pdf(
          fenced(
            '(',
            grid([
              ['0', hatted('+')],
              [hatted('-'), '0'],
            ]),
            ')',
          ),
        ).latex,
      ),
    ).toBe(normaliseLatex('\\begin{pmatrix}0&(\\hat{a})_{+}\\\\(\\hat{a})_{-}&0\\end{pmatrix}'));
  });

  it('splits the columns of each row when tight column spacing leaves no gap shared by all rows (eqnarray), not a binomial', () => {
    expect(
      normaliseLatex(
        pdf(
          fenced(
            '(',
            grid(
              [
                ['0', hatted('+')],
                [hatted('-'), '0'],
              ],
              'centre',
              1.36 / 1.2,
              0.28,
            ),
            ')',
          ),
        ).latex,
      ),
    ).toBe(normaliseLatex('\\begin{pmatrix}0&(\\hat{a})_{+}\\\\(\\hat{a})_{-}&0\\end{pmatrix}'));
  });

  it('reads nuclide prescripts at the start and after an arrow', () => {
    const nuclide = (mass: string, number: string, element: string) => row(scripts(row(), number, mass), g(element, true));
    expect(normaliseLatex(image(row(nuclide('14', '6', 'C'), '\\rightarrow', nuclide('14', '7', 'N'))).latex)).toBe(
      normaliseLatex('{}^{14}_{6}C\\rightarrow{}^{14}_{7}N'),
    );
    // An element symbol of two upright letters is one word (\\text{Th}), and a nucleus all the same.
    const word = (mass: string, number: string, element: string) => row(scripts(row(), number, mass), row(...[...element].map((l) => g(l, true))));
    expect(normaliseLatex(pdf(row(nuclide('238', '92', 'U'), '\\rightarrow', word('234', '90', 'Th'))).latex)).toBe(
      normaliseLatex('{}^{238}_{92}U\\rightarrow{}^{234}_{90}\\text{Th}'),
    );
  });

  it('reads a small raised run before a lower-case letter or a digit on, not as a prescript', () => {
    for (const host of ['x', '2']) {
      const read = image(row(scripts(row(), '6', '14'), g(host, true))).latex;
      expect(read, read).not.toContain('{}');
      expect([...read.replace(/[^0-9a-z]/g, '')].sort().join('')).toBe([...`146${host}`].sort().join(''));
    }
  });

  it('does not take a fraction bar above a root for its index', () => {
    expect(normaliseLatex(image(frac('1', row('\\sigma', sqrt(row('2', '\\pi'))))).latex)).toBe(normaliseLatex('\\frac{1}{\\sigma\\sqrt{2\\pi}}'));
  });

  it('reads double primes', () => {
    expect(pdf(row(sup('f', row(g('\\prime'), g('\\prime'))), '(x)')).latex).toBe("f''(x)");
  });
});
