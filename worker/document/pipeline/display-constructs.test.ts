import { describe, expect, it } from 'vitest';
import { normaliseLatex } from '../../engine/math/latex-normalise.js';
import { displaysOnPage } from '../../../test/support/display-page.js';

/**
 * Displays between paragraphs whose parts lie outside the ink the page finds for the display (a
 * `\boxed` frame's rules stand clear of what it holds), far from their row (a brace's label), or
 * set a wide space apart (alignat's column pairs, a fraction after its `=`).
 */
const DISPLAYS: Array<{ source: string; expected: string }> = [
  { source: '\\[ \\boxed{W_t-F\\subseteq V(P_i)\\subseteq W_t}. \\]', expected: '\\boxed{W_t-F\\subseteq V(P_i)\\subseteq W_t}.' },
  {
    source:
      '\\[ \\frac{d\\Gamma}{dt}=\\int_C \\mathbf{u}\\cdot d\\mathbf{r}+\\underbrace{\\int_C \\mathbf{u}\\cdot d\\left(\\frac{d\\mathbf{r}}{dt}\\right)}_{=0} \\]',
    expected:
      '\\frac{d\\Gamma}{dt}=\\int_C \\mathbf{u}\\cdot d\\mathbf{r}+\\underbrace{\\int_C \\mathbf{u}\\cdot d\\left(\\frac{d\\mathbf{r}}{dt}\\right)}_{=0}',
  },
  {
    source: '\\begin{alignat*}{2} a & = b + c, & \\qquad d & = e,\\\\ f & = g, & \\qquad h & = k + l. \\end{alignat*}',
    expected: '\\begin{aligned}a & = b + c, & d & = e,\\\\ f & = g, & h & = k + l.\\end{aligned}',
  },
  // A continued fraction of digits alone: nothing but its `x =` seeds the display, its bars stand a thick space away.
  { source: '\\[ x = \\cfrac{1}{1 + \\cfrac{1}{2 + \\cfrac{1}{3}}} \\]', expected: 'x=\\frac{1}{1+\\frac{1}{2+\\frac{1}{3}}}' },
  // \tbinom: parentheses of the text's size around two rows set in script size.
  { source: '\\[ \\binom{n}{k} + \\tbinom{n}{k} \\]', expected: '\\binom{n}{k}+\\binom{n}{k}' },
  // Pieces centred over or under a symbol, where a script would stand beside it; an arrow's label of script size.
  {
    source: '\\[ \\overset{*}{X} + \\underset{n}{Y} \\overset{\\mathrm{def}}{=} A \\xrightarrow{f} B \\]',
    expected: '\\overset{*}{X}+\\underset{n}{Y}\\overset{\\mathrm{def}}{=}A\\xrightarrow{f}B',
  },
  // A piece under a symbol with nothing beside it is no row of its own; words under a relation are its label, not prose.
  { source: '\\[ \\underset{*}{X} \\]', expected: '\\underset{*}{X}' },
  { source: '\\[ f \\underset{\\text{def}}{=} g \\]', expected: 'f\\underset{\\text{def}}{=}g' },
  // Scripts in a row of bases stand beside them, over no neighbour.
  { source: '\\[ E^{2}=p^{2}c^{2}+m_{0}^{2}c^{4} \\]', expected: 'E^{2}=p^{2}c^{2}+m_{0}^{2}c^{4}' },
  // An operator name in a subscript is in script style: the superscript beside it is the base's.
  { source: '\\[ \\lambda_{\\max}^{1-q}(x) + \\mu_{\\min}^{2} \\]', expected: '\\lambda_{\\max}^{1-q}(x)+\\mu_{\\min}^{2}' },
  // Rows of display integrals whose side subscripts come within a limit's reach of the row below.
  {
    source:
      '\\begin{align*} D(q_2\\|q_1) &= \\int_{\\mathbb{R}} q_2(x)\\log\\frac{q_2(x)}{q_1(x)}\\,dx\\\\ &= \\int_{\\mathbb{R}} q_2(x)\\Bigl(\\log\\frac{s_1}{s_2} - \\frac{x^2}{2s_2^2}\\Bigr)\\,dx \\end{align*}',
    expected:
      '\\begin{aligned}D(q_{2}\\|q_{1})&=\\int_{\\mathbb{R}}q_{2}(x)\\log\\frac{q_{2}(x)}{q_{1}(x)}dx\\\\&=\\int_{\\mathbb{R}}q_{2}(x)(\\log\\frac{s_{1}}{s_{2}}-\\frac{x^{2}}{2s_{2}^{2}})dx\\end{aligned}',
  },
  // Scripts beside an operator whose limits are stacked: amsmath's \sideset.
  {
    source: "\\[ \\sideset{}{'}\\sum_{0\\le i\\le m} E_i x + \\sideset{_a^b}{_c^d}\\prod_k F_k \\]",
    expected: "\\sideset{}{'}\\sum_{0\\leq i\\leq m}E_{i}x+\\sideset{_{a}^{b}}{_{c}^{d}}\\prod_{k}F_{k}",
  },
  // Left scripts alone before such an operator: the raised one is no base of the lower one.
  { source: '\\[ \\sideset{_*^*}{_*^*}\\prod_{j} G_j \\]', expected: '\\sideset{_{*}^{*}}{_{*}^{*}}\\prod_{j}G_{j}' },
  // Bold maths fonts (CMMIB, CMBSY) and a bold roman symbol are `\boldsymbol`'s; a bold digit is `\mathbf`'s.
  {
    source: '\\[ \\boldsymbol{\\sigma} = \\mathbf{C}\\boldsymbol{\\varepsilon} + \\boldsymbol{x} \\boldsymbol{+} \\boldsymbol{\\infty} - \\mathbf{0} \\]',
    expected: '\\boldsymbol{\\sigma}=\\mathbf{C}\\boldsymbol{\\varepsilon}+\\boldsymbol{x}\\boldsymbol{+}\\boldsymbol{\\infty}-\\mathbf{0}',
  },
  // amsmath's marked limits: an arrow under `lim`, a rule under or over it (above its tallest letter, outside the glyphs' ink).
  {
    source: '\\[ \\varinjlim_{n} A_n + \\varprojlim_{n} B_n + \\varliminf_{n\\to\\infty} a_n + \\varlimsup_{n\\to\\infty} b_n \\]',
    expected: '\\varinjlim_{n}A_{n}+\\varprojlim_{n}B_{n}+\\varliminf_{n\\to\\infty}a_{n}+\\varlimsup_{n\\to\\infty}b_{n}',
  },
  // Three and four dots, a ring, a two-headed arrow over a pair, and poor man's bold (three copies of a glyph overprinted).
  {
    source: '\\[ \\dddot{x} + \\ddddot{y} = \\mathring{A} + \\overleftrightarrow{AB} + \\pmb{z} \\]',
    expected: '\\dddot{x}+\\ddddot{y}=\\mathring{A}+\\overleftrightarrow{AB}+\\boldsymbol{z}',
  },
  // A row of dots across a matrix's columns does not hide its columns; \genfrac prints a bracketed stack; a spaced operator name.
  {
    source:
      '\\[ \\begin{pmatrix} a & b & c \\\\ \\hdotsfor{3} \\\\ d & e & f \\end{pmatrix} + \\genfrac{[}{]}{0pt}{}{n}{k} + \\operatorname*{arg\\,max}_{x} g \\]',
    expected: '\\begin{pmatrix} a & b & c \\\\ \\hdotsfor{3} \\\\ d & e & f \\end{pmatrix} + \\genfrac{[}{]}{0pt}{}{n}{k} + \\operatorname*{arg\\,max}_{x} g',
  },
  // A wide lower limit ends nearer the next operator's centre than its own, and stays whole.
  { source: '\\[ S = (m-k)^{q-1} \\sum_{k_1+\\dots+k_q=k} \\prod_{j=1}^{q} x_j \\]', expected: 'S=(m-k)^{q-1}\\sum_{k_1+\\cdots+k_q=k}\\prod_{j=1}^{q}x_j' },
  // \vdots and \ddots are three full stops each; in a matrix they would split its row into three.
  {
    source: '\\[ \\begin{pmatrix} a_{11} & \\cdots & a_{1n} \\\\ \\vdots & \\ddots & \\vdots \\\\ a_{m1} & \\cdots & a_{mn} \\end{pmatrix} \\]',
    expected: '\\begin{pmatrix} a_{11} & \\cdots & a_{1n} \\\\ \\vdots & \\ddots & \\vdots \\\\ a_{m1} & \\cdots & a_{mn} \\end{pmatrix}',
  },
  // Staggered tensor indices hang from an empty base; a nuclide's prescripts after a comma and a space are no scripts of the comma.
  {
    source: '\\[ R^{\\mu}{}_{\\nu\\rho\\sigma} = T^{\\mu\\nu}{}_{\\rho}, \\quad {}^{14}_{6}\\mathrm{C} \\to {}^{14}_{7}\\mathrm{N} \\]',
    expected: 'R^{\\mu}{}_{\\nu\\rho\\sigma}=T^{\\mu\\nu}{}_{\\rho},{}^{14}_{6}\\mathrm{C}\\to{}^{14}_{7}\\mathrm{N}',
  },
  // An overlined operator name's limit is its limit, however narrow (not under the overline).
  { source: '\\[ \\varlimsup_{n} a_n + \\varliminf_{k} b_k \\]', expected: '\\varlimsup_{n}a_{n}+\\varliminf_{k}b_{k}' },
  // flalign's one row of two column pairs, at the two margins.
  { source: '\\begin{flalign*} a &= b & c &= d \\end{flalign*}', expected: 'a=b \\qquad c=d' },
  // Four integral signs pulled together; an arrow with labels above and below (not an over-arrow on its lower label).
  {
    source: '\\[ \\iiiint_V f \\, dV + A \\xrightarrow[\\text{under}]{\\text{over}} B \\]',
    expected: '\\iiiint_{V}f dV+A\\xrightarrow[\\text{under}]{\\text{over}}B',
  },
  // A display ending in a word a quad from its maths is a display, however long the word.
  { source: '\\[ a = b, \\quad \\text{otherwise} \\]', expected: 'a=b,\\text{otherwise}' },
  // A display in the bold maths version: the bold is the context's, the symbols are plain.
  { source: '{\\mathversion{bold} \\[ \\alpha = \\beta + x^{2} \\]}', expected: '\\alpha=\\beta+x^{2}' },
];

describe('display constructs on a born-digital page', () => {
  const page = displaysOnPage(DISPLAYS.map(({ source }) => source));

  it.each(DISPLAYS.map(({ expected }, index) => [expected, index] as const))('reads %s', (expected, index) => {
    expect(page.displays()[index]).toBe(normaliseLatex(expected));
  });
});
