import { describe, expect, it } from 'vitest';
import { normaliseLatex } from './latex-normalise.js';

const same = (a: string, b: string) => expect(normaliseLatex(a)).toBe(normaliseLatex(b));
const different = (a: string, b: string) => expect(normaliseLatex(a)).not.toBe(normaliseLatex(b));

describe('normaliseLatex', () => {
  it('writes arguments braced and compact', () => {
    expect(normaliseLatex('x^2 + \\frac12')).toBe('x^{2}+\\frac{1}{2}');
    expect(normaliseLatex('\\alpha x')).toBe('\\alpha x');
    expect(normaliseLatex('\\alpha 2')).toBe('\\alpha2');
    expect(normaliseLatex('\\sqrt [3] {x}')).toBe('\\sqrt[3]{x}');
  });

  it("spells bm's bold as amsmath's and a bold digit as the bold roman digit", () => {
    same('\\bm{\\sigma}+\\bm x', '\\boldsymbol{\\sigma}+\\boldsymbol{x}');
    same('\\boldsymbol{0}', '\\mathbf{0}');
    different('\\boldsymbol{x}', '\\mathbf{x}');
    different('\\boldsymbol{x}', 'x');
    same('\\pmb{x}', '\\boldsymbol{x}');
  });

  it('spells \\genfrac and spaced operator names as they print', () => {
    same('\\genfrac{}{}{1pt}{}{a}{b}', '\\frac{a}{b}');
    same('\\genfrac{(}{)}{0pt}{}{n}{k}', '\\binom{n}{k}');
    same('\\genfrac{[}{]}{0pt}{}{n}{k}', '\\begin{bmatrix}n\\\\k\\end{bmatrix}');
    same('\\genfrac{\\langle}{\\rangle}{}{}{a}{b}', '\\langle\\frac{a}{b}\\rangle');
    same('\\operatorname*{arg\\,max}_{x} f', '\\arg\\max_{x}f');
    same('\\operatorname{foo\\,bar}', '\\text{foobar}');
  });

  it("spells amsmath's marked limits as they print", () => {
    same('\\overline{\\lim}_{n}a_n', '\\varlimsup_{n}a_{n}');
    same('\\underline{\\lim}_{n}', '\\varliminf_{n}');
    different('\\overline{\\lim x}', '\\varlimsup x');
    same('X \\stackrel{f}{\\to} Y', 'X\\xrightarrow{f}Y');
    same('X \\overset{g}{\\longleftarrow} Y', 'X\\xleftarrow{g}Y');
    different('X \\overset{g}{=} Y', 'X\\xrightarrow{g}Y');
  });

  it('removes spaces and spacing commands', () => {
    same('\\int_0^1 f(x) \\, dx', '\\int_{0}^{1}f(x)dx');
    same('a\\;b\\!c\\quad d~e\\qquad f\\ g\\hspace{1em}h', 'abcdefgh');
  });

  it('removes braces that group nothing but keeps those that do', () => {
    same('{x}', 'x');
    same('{x}^{2}', 'x^2');
    // A group inside a scripted group groups nothing either (`{\\mathrm{e}}^{x}`, the upright e read as e).
    same('{\\mathrm {e} }^{-y}', 'e^{-y}');
    same('{{x}}^{2}', 'x^2');
    same('{{a+b}}c', 'a+bc');
    different('{ab}^2', 'ab^2');
    // One bracketed expression scripted as a group prints as its closing bracket scripted.
    same('{\\bigg[ x \\bigg]}_{x^2}^{2x}', '[x]_{x^{2}}^{2x}');
    same('{(a+b)}^{2}', '(a+b)^{2}');
    different('{(a)(b)}^{2}', '(a)(b)^{2}');
    different('{(a)b}^{2}', '(a)b^{2}');
    different('x^{2}y', 'x^{2y}');
    different('e^{x^2}', 'e^{x}^2');
    different('a_{n+1}', 'a_{n}+1');
  });

  it('puts scripts in one order', () => {
    same('x_{i}^{2}', 'x^{2}_{i}');
    same('\\sum_{i=1}^{n}', '\\sum^n_{i=1}');
    different('x_{i}^{2}', 'x_{2}^{i}');
  });

  it('treats primes as superscripts', () => {
    same("f'(x)", 'f^{\\prime}(x)');
    same("f''", 'f^{\\prime\\prime}');
    same("x'^{2}", 'x^{\\prime 2}');
    different("f'", 'f');
  });

  it('drops sizing and limits placement', () => {
    same('\\left( \\frac{a}{b} \\right)', '(\\frac{a}{b})');
    same('\\left. x \\right|', 'x|');
    same('\\bigl[ x \\bigr]', '[x]');
    same('\\left\\{ x \\right\\}', '\\lbrace x\\rbrace');
    same('\\sum\\limits_{i} \\displaystyle x', '\\sum_i x');
  });

  it('maps synonyms to one spelling', () => {
    same('\\dfrac{a}{b} + \\tfrac{c}{d}', '\\frac{a}{b}+\\frac{c}{d}');
    same('\\cfrac{1}{2+\\cfrac[l]{1}{x}}', '\\frac{1}{2+\\frac{1}{x}}');
    same('\\sum_{\\begin{subarray}{l} i<m \\\\ j<n \\end{subarray}}', '\\sum_{\\substack{i<m\\\\j<n}}');
    same('\\lim_{x \\to 0}', '\\lim_{x\\rightarrow0}');
    same('a \\le b \\ge c \\ne d', 'a\\leq b\\geq c\\neq d');
    same('\\operatorname{sin} x', '\\sin x');
    same('\\operatorname*{lim}_{n}', '\\lim_n');
    same('\\vert x \\Vert', '|x\\|');
    same('1, 2, \\dots', '1,2,...');
    same('a − b × c', 'a-b\\times c');
  });

  it('reads upright text the same whichever command wrote it', () => {
    same('\\mathrm{d}x', 'dx');
    same('\\int f \\, \\mathrm d x', '\\int fdx');
    same('\\text{if } x', '\\mathrm{if}x');
    expect(normaliseLatex('\\operatorname{foo}(x)')).toBe('\\text{foo}(x)');
    different('\\text{ab}', 'ab');
    same('\\text{is}\\text{odd}', '\\text{is odd}');
    same('\\text{otherwise.}', '\\text{otherwise}.');
    same('\\text{an equation number!}', '\\text{an equation number}!');
    same("x.\\text{''}", 'x.\u201D');
    same("\\text{a ``word''}", '\\text{a \u201Cword}\u201D');
    different('\\text{a}!', '\\text{a}');
    same('\\substack{i<n \\\\ j}', '\\substack{{i<n}\\\\j}');
  });

  it('reads \\mathrm as upright maths whose scripts stay scripts', () => {
    expect(normaliseLatex('\\mathrm{H_2SO_4}')).toBe('H_{2}\\text{SO}_{4}');
    same('\\mathrm{N_2+3H_2\\rightleftharpoons 2NH_3}', 'N_{2}+3H_{2}⇌2\\text{NH}_{3}');
    same('g=9.81\\,\\mathrm{m/s^{2}}', 'g=9.81m/s^{2}');
    same('\\mathrm{sin}\\,x', '\\sin x');
    same('\\Delta G^{\\circ}', '\\Delta G^{◦}');
  });

  it('keeps distinctions that change the formula', () => {
    different('\\bar{x}', '\\overline{x}');
    different('\\frac{a}{b}c', '\\frac{a}{bc}');
    different('\\sqrt{x}+1', '\\sqrt{x+1}');
    different('\\cdot', '.');
    different('\\ldots', '\\cdots');
  });

  it('keeps matrices and their cells', () => {
    expect(normaliseLatex('\\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\end{pmatrix}')).toBe('\\begin{pmatrix}1&0\\\\0&1\\end{pmatrix}');
    same('\\begin{array}{c c} a & b \\end{array}', '\\begin{array}{cc}a&b\\end{array}');
    different('\\begin{pmatrix}1&0\\\\0&1\\end{pmatrix}', '\\begin{bmatrix}1&0\\\\0&1\\end{bmatrix}');
    // A row break before \end opens no row.
    same('\\begin{bmatrix}1&0\\\\0&1\\\\\\end{bmatrix}', '\\begin{bmatrix}1&0\\\\0&1\\end{bmatrix}');
    different('\\begin{bmatrix}1&0\\\\0&1\\end{bmatrix}', '\\begin{bmatrix}1&0\\end{bmatrix}');
  });

  it('normalises nested structures at any depth', () => {
    same('\\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}', '\\frac{-b\\pm\\sqrt{b^{2}-4ac}}{2a}');
    same('\\int_{0}^{\\infty} e^{-x^{2}} \\, \\mathrm{d}x', '\\int_0^\\infty e^{-x^2}dx');
    same("f'(x) = \\lim_{h \\to 0} \\dfrac{f(x+h) - f(x)}{h}", 'f^{\\prime}(x)=\\lim_{h\\rightarrow 0}\\frac{f(x+h)-f(x)}{h}');
  });

  it('unifies commands that draw the same glyph', () => {
    same('P(A\\mid B)', 'P(A|B)');
    same('f\\colon X\\to Y', 'f:X\\rightarrow Y');
    same('a\\equiv b\\pmod{n}', 'a\\equiv b(\\text{mod}n)');
    different('a\\pmod{n}', 'a(n)');
    same('x\\equiv y\\mod{m^2}', 'x\\equiv y\\text{mod}m^{2}');
    same('x\\equiv y\\pod{m^2}', 'x\\equiv y(m^{2})');
    same('a\\implies b\\iff c', 'a\\Longrightarrow b\\Longleftrightarrow c');
    different('a\\implies b', 'a\\Rightarrow b');
  });

  it('reads extensible arrows with their labels as arguments', () => {
    same('\\xrightarrow\\Delta', '\\xrightarrow{\\Delta}');
    expect(normaliseLatex('\\xrightarrow[T]{abc}x')).toBe('\\xrightarrow[T]{abc}x');
    different('\\xrightarrow{ab}c', '\\xrightarrow{abc}');
  });

  it('is idempotent', () => {
    for (const source of ['x_{i}^{2}+\\frac{a}{b}', '\\begin{cases}x & \\text{if } x>0\\end{cases}', "f''(x)"]) {
      const once = normaliseLatex(source);
      expect(normaliseLatex(once)).toBe(once);
    }
  });
});
