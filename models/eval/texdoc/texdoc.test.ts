import { describe, expect, it } from 'vitest';
import { documentText, extractDisplays } from './displays.js';
import { mmdDisplays, normaliseDisplay, normaliseMmdDisplay } from './normalise.js';
import { styleLatex } from '../../../page/render/mmd.js';
import { constructTable, scoreDocument } from './score.js';

describe('display equations out of a LaTeX source', () => {
  const source = [
    '\\newcommand{\\foo}{\\[ x \\]}',
    'Text \\[ a^2 + b^2 = c^2 \\] more. \\verb|\\[ q \\]|',
    '\\begin{verbatim}\\[ printed \\]\\end{verbatim}',
    '\\begin{align} f(x) &= \\sum_{i=1}^{n} x_i \\label{e1} \\\\ &= \\frac{1}{2} \\end{align}',
    '$$ \\mycustom{x} $$ % a document macro: not scorable',
    '\\begin{equation*} \\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\end{pmatrix} \\end{equation*} % \\[ commented \\]',
  ].join('\n');
  const displays = extractDisplays(documentText(source, false));

  it('takes displays outside printed code, definitions and comments, with standard commands only', () => {
    expect(displays.map((d) => d.environment)).toEqual(['[', 'align', 'equation*']);
  });

  it('names the constructs each display holds', () => {
    expect(displays[0]!.constructs).toEqual(['plain']);
    expect(displays[1]!.constructs).toEqual(expect.arrayContaining(['aligned', 'numbered', 'stacked limits', 'fraction']));
    expect(displays[2]!.constructs).toEqual(['matrix']);
  });

  it('leaves out what TeX never reads: an \\iffalse block and what follows \\end{document}', () => {
    const skipped = [
      '\\[ a+b \\]',
      '\\iffalse % a bug fix is needed',
      '\\ifx\\a\\b \\[ c \\] \\fi \\ifthenelse{\\equal{a}{b}}{x}{y} \\[ d \\]',
      '\\fi',
      '\\[ e+f \\] \\end{document}',
      '\\[ g \\]',
    ].join('\n');
    expect(extractDisplays(documentText(skipped, false)).map((d) => d.body)).toEqual(['a+b', 'e+f']);
  });

  it('leaves out environments the document declares as verbatim, whatever their names', () => {
    const declared = [
      '\\lstnewenvironment{howto}[1][]{}{}',
      '\\DefineVerbatimEnvironment{Printed}{Verbatim}{}',
      '\\begin{howto}[caption=x] \\begin{equation} q \\end{equation} \\end{howto}',
      '\\begin{Printed} \\[ r \\] \\end{Printed}',
      '\\begin{center} \\[ s \\] \\end{center}',
    ].join('\n');
    expect(extractDisplays(documentText(declared, false)).map((d) => d.body)).toEqual(['s']);
  });

  it('leaves out a display that prints code with \\verb, since its source no longer spells what the page shows', () => {
    const source = '\\begin{displaymath} \\verb|\\prfcmd|\\{\\text{formula}\\} \\end{displaymath} \\[ x = 1 \\]';
    expect(extractDisplays(documentText(source, false)).map((d) => d.body)).toEqual(['x = 1']);
  });

  it('reads a `%` after a row break as a comment and `\\%` as a percent sign', () => {
    const source = '\\begin{align} a &= 1, \\\\% the second row\n b &= 2\\% \\end{align}';
    expect(extractDisplays(documentText(source, false)).map((d) => d.body)).toEqual(['a &= 1, \\\\\n b &= 2\\%']);
  });

  it("prints standard commands as the document's own aliases and leaves out displays of those it redefines", () => {
    const source = '\\let\\tilde\\widetilde \\def\\div{\\mathop{\\hbox{div}}} \\[ \\tilde R = 1 \\] \\[ \\div v = 0 \\] \\[ a \\div b \\]';
    expect(extractDisplays(documentText(source, false)).map((d) => d.body)).toEqual(['\\widetilde R = 1']);
  });

  it('reads a .dtx documentation, not its macrocode', () => {
    const dtx = '% \\[ x+1 \\]\n%    \\begin{macrocode}\n\\def\\y{\\[ z \\]}\n%    \\end{macrocode}\n';
    expect(extractDisplays(documentText(dtx, true)).map((d) => d.body)).toEqual(['x+1']);
  });
});

describe('the display normal form', () => {
  it('spells every alignment environment as aligned and drops labels, tags and spacing', () => {
    const aligned = normaliseMmdDisplay('\\begin{aligned} a & = b \\\\ & = c \\end{aligned}');
    expect(normaliseDisplay('align', 'a &= b \\label{x} \\\\ &= c \\\\')).toBe(aligned);
    expect(normaliseDisplay('equation', '\\begin{split} a &= b \\\\[2pt] &= c \\end{split} \\tag{3}')).toBe(aligned);
    expect(normaliseDisplay('eqnarray*', 'a &=& b \\\\ &=& c')).toBe(aligned);
    expect(normaliseDisplay('align*', 'a =& b \\\\ =& c')).toBe(aligned);
    // An empty group after the relation keeps its space: `a = {}& b` prints as `a &= b`.
    expect(normaliseDisplay('align', 'a = {}& b \\\\ = {}& c')).toBe(aligned);
    // eqnarray's middle column alone is centred rows, as gather prints them.
    expect(normaliseDisplay('eqnarray', '& a + b \\\\ & = c &')).toBe(normaliseMmdDisplay('\\begin{gathered}a+b\\\\=c\\end{gathered}'));
    // A control word moved after the `&` keeps its word boundary (`\\iff &H` is `&\\iff H`, not `&\\iffH`).
    expect(normaliseDisplay('align*', '&a = b \\\\ \\iff &H = c')).toBe(normaliseMmdDisplay('\\begin{aligned}&a=b\\\\&\\Longleftrightarrow H=c\\end{aligned}'));
    expect(normaliseMmdDisplay('\\begin{aligned}&a=b\\\\\\Longleftrightarrow&H=c\\end{aligned}')).toBe(normaliseDisplay('align*', '&a = b \\\\ \\iff &H = c'));
    // An operator that is a script stays in its script.
    expect(normaliseDisplay('eqnarray', 'x_\\pm & = & a \\\\ y_- & = & b')).toBe(
      normaliseMmdDisplay('\\begin{aligned}x_{\\pm} & = a \\\\ y_{-} & = b\\end{aligned}'),
    );
    expect(normaliseDisplay('gather*', 'a \\\\ b')).toBe(normaliseMmdDisplay('\\begin{gathered}a\\\\b\\end{gathered}'));
    expect(normaliseDisplay('align*', 'a \\\\ b')).toBe(normaliseDisplay('gather', 'a \\\\ b'));
  });

  it('counts the array spellings of /v3/pdf at default options (idiomatic_eqn_arrays false) as the environments', () => {
    const render = (latex: string) => normaliseMmdDisplay(styleLatex(latex, {}));
    expect(render('\\begin{aligned}a&=b\\\\&=c\\end{aligned}')).toBe(normaliseDisplay('align*', 'a &= b \\\\ &= c'));
    expect(render('\\begin{gathered}a=1\\\\b=2\\end{gathered}')).toBe(normaliseDisplay('gather*', 'a=1 \\\\ b=2'));
    expect(render('f=\\begin{cases}1&x>0\\\\0&x\\leq0\\end{cases}')).toBe(normaliseDisplay('[', 'f = \\begin{cases} 1 & x>0 \\\\ 0 & x \\leq 0 \\end{cases}'));
  });

  it('reads a one-row alignment as its row, and amsmath dots as printed', () => {
    expect(normaliseDisplay('align*', 'x &= 1')).toBe('x=1');
    expect(normaliseDisplay('[', 'a_1 + \\dots + a_n, b_1, \\dots, b_n')).toBe('a_{1}+\\cdots+a_{n},b_{1},\\ldots,b_{n}');
  });

  it('reads maths inside text, and arrays between delimiters as matrices', () => {
    expect(normaliseDisplay('[', 'v = 1 \\text{ if $i \\in A$, otherwise.}')).toBe(normaliseMmdDisplay('v=1\\text{if}i\\in A\\text{,otherwise}.'));
    expect(normaliseDisplay('[', '\\left( \\begin{array}{cc} 0 & a \\\\ b & 0 \\end{array} \\right)')).toBe(
      normaliseMmdDisplay('\\begin{pmatrix}0&a\\\\b&0\\end{pmatrix}'),
    );
    expect(normaliseDisplay('[', '\\left(\\begin{array}{c}\\frac{x}{R}\\end{array}\\right)^2')).toBe(normaliseMmdDisplay('(\\frac{x}{R})^{2}'));
  });

  it('does not equate different formulas', () => {
    expect(normaliseDisplay('align*', 'a &= b \\\\ c &= d')).not.toBe(normaliseDisplay('align*', 'a = b \\\\ c &= d'));
  });
});

describe('scoring a document', () => {
  it('pairs each source display with its own MMD display and counts the rest as missing', () => {
    const displays = extractDisplays('\\[ x+1 \\] \\[ x+1 \\] \\[ \\frac{a}{b} \\]');
    const mmd = 'Text\n\n\\[\nx+1\n\\]\n\nmore\n\n\\[\n\\frac{a}{c}\n\\]\n';
    const rows = scoreDocument('doc', displays, mmdDisplays(mmd));
    expect(rows.map((r) => r.exact)).toEqual([true, false, false]);
    expect(rows[1]!.got).toBeUndefined();
    expect(rows[1]!.distance).toBe(1);
    expect(rows[2]!.distance).toBeGreaterThan(0);
    expect(constructTable(rows).at(-1)).toMatchObject({ construct: 'all', count: 3, exact: 1 / 3 });
  });

  it('scores a display split by \\intertext against the displays the page prints on either side of its prose', () => {
    const displays = extractDisplays('\\begin{align*} a &= b + c \\\\ d &= e \\intertext{and so, for $x$ {big},} f(x) &= g \\end{align*}');
    const mmd = '\\[\n\\begin{aligned}a & =b+c \\\\ d & =e\\end{aligned}\n\\]\n\nand so, for \\(x\\) big,\n\n\\[\nf(x)=g\n\\]\n';
    const [row] = scoreDocument('doc', displays, mmdDisplays(mmd));
    expect(row).toMatchObject({ exact: true, distance: 0 });
    // One part printed wrong: off by that part's share of the display.
    const [half] = scoreDocument('doc', displays, mmdDisplays(mmd.replace('f(x)=g', 'f(y)=g')));
    expect(half!.exact).toBe(false);
    expect(half!.distance).toBeGreaterThan(0);
    expect(half!.distance).toBeLessThan(0.1);
  });

  it('scores a display under \\mathversion{bold} without the bold markup its every symbol carries', () => {
    const source = '\\mathversion{bold}\\begin{equation} S = k \\ln w \\end{equation}\\mathversion{normal} \\[ T = 1 \\]';
    const displays = extractDisplays(documentText(source, false));
    expect(displays.map((d) => d.boldVersion)).toEqual([true, undefined]);
    const rows = scoreDocument('doc', displays, ['\\mathbf{S}=\\mathbf{k}\\ln\\boldsymbol{w}', '\\mathbf{T}=1']);
    expect(rows.map((r) => r.exact)).toEqual([true, false]);
  });
});
