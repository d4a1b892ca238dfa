import { describe, expect, it } from 'vitest';
import type { MathRead, PageLine } from '../model.js';
import { lineMmd } from '../render/mmd.js';
import { texError } from '../../test/support/tex-parse.js';
import { joinDisplayRows, relationSplit } from './display-rows.js';

const text = (y: number): PageLine => ({ text: 'Some words of prose here', confidence: 0.99, box: { x: 10, y, width: 500, height: 20 }, kind: 'text' });
const row = (latex: string, y: number, x: number, extra: Partial<MathRead> = {}): PageLine => ({
  text: '',
  confidence: 0.9,
  box: { x, y, width: 200, height: 20 },
  kind: 'math',
  math: { latex, confidence: 0.9, confidenceRate: 0.95, symbolCount: 5, ...extra },
});
const join = (lines: PageLine[]) => joinDisplayRows(lines, (l) => l.box, 20).map((l) => l.math?.latex ?? l.text);

describe('joinDisplayRows', () => {
  it('writes rows whose relations line up as aligned, a continuation row starting with its relation', () => {
    expect(join([text(0), row('f(x)=x^{2}', 40, 100, { relationX: 40 }), row('=x\\cdot x', 70, 140, { relationX: 0 }), text(110)])).toEqual([
      'Some words of prose here',
      '\\begin{aligned}f(x)&=x^{2}\\\\&=x\\cdot x\\end{aligned}',
      'Some words of prose here',
    ]);
  });

  it('writes rows that do not line up, or have no relation, as gathered', () => {
    expect(join([row('a=b', 40, 100, { relationX: 20 }), row('cc+dd=e', 70, 100, { relationX: 90 })])).toEqual([
      '\\begin{gathered}a=b\\\\cc+dd=e\\end{gathered}',
    ]);
    expect(join([row('a+b', 40, 100), row('c', 70, 100)])).toEqual(['\\begin{gathered}a+b\\\\c\\end{gathered}']);
  });

  it('leaves rows apart that prose or a display gap parts', () => {
    expect(join([row('a=b', 40, 100, { relationX: 20 }), text(70), row('c=d', 100, 100, { relationX: 20 })])).toEqual([
      'a=b',
      'Some words of prose here',
      'c=d',
    ]);
    expect(join([row('a=b', 40, 100, { relationX: 20 }), row('c=d', 90, 100, { relationX: 20 })])).toEqual(['a=b', 'c=d']);
  });

  it('joins the rows of an image of maths alone whose gaps are shorter than its rows, measured by the rows (the line height is half a row)', () => {
    // An align's rows at 150 dpi: 18 px rows 13 px apart, and a short `&= c` row 20 px under a 17 px one.
    const aligned = (lines: PageLine[]) => joinDisplayRows(lines, (l) => l.box, 9).map((l) => l.math?.latex ?? l.text);
    const tall = (latex: string, y: number, height: number, relationX: number, x = 100): PageLine => ({
      ...row(latex, y, x, { relationX }),
      box: { x, y, width: 120, height },
    });
    expect(aligned([tall('b_{1}=a', 6, 18, 20), tall('b_{2}=c', 37, 19, 20)])).toEqual(['\\begin{aligned}b_{1}&=a\\\\b_{2}&=c\\end{aligned}']);
    expect(aligned([tall('x=a+b', 6, 17, 18), tall('=c', 43, 10, 0, 118)])).toEqual(['\\begin{aligned}x&=a+b\\\\&=c\\end{aligned}']);
    // With a line of text on the page, its height measures the gap as before.
    expect(aligned([text(200), tall('b_{1}=a', 6, 18, 20), tall('b_{2}=c', 37, 19, 20)])).toEqual(['Some words of prose here', 'b_{1}=a', 'b_{2}=c']);
  });

  it('aligns continuation rows opening with any arrow a scan reads, long and leftward ones too', () => {
    // `\iff` and `\impliedby` rows of a derivation (the image reader's long and left arrows) were no
    // relations here, so such a derivation came out gathered.
    for (const arrow of ['\\Longleftrightarrow', '\\Longleftarrow', '\\longleftarrow', '\\leftrightarrow']) {
      expect(join([row('H(X|Y)=0', 40, 100, { relationX: 60 }), row(`${arrow} H(X)=H(Y)`, 70, 160, { relationX: 0 })])).toEqual([
        `\\begin{aligned}H(X|Y)&=0\\\\&${arrow} H(X)=H(Y)\\end{aligned}`,
      ]);
    }
  });

  it('carries a row opening with a binary operator at or right of the column on in the aligned display', () => {
    expect(join([row('I=a+b', 40, 100, { relationX: 30 }), row('=c+d', 70, 130, { relationX: 0 }), row('+e', 100, 150)])).toEqual([
      '\\begin{aligned}I&=a+b\\\\&=c+d\\\\&+e\\end{aligned}',
    ]);
    // Left of the column it is a row of its own: a gather's, or a multline's last row flush right.
    expect(join([row('I=a+b', 40, 100, { relationX: 30 }), row('+e', 70, 60)])).toEqual(['\\begin{gathered}I=a+b\\\\+e\\end{gathered}']);
    expect(join([row('I=a+b', 40, 100, { relationX: 30 }), row('+e', 70, 125)])).toEqual(['\\begin{gathered}I=a+b\\\\+e\\end{gathered}']);
  });

  it('keeps a derivation apart from close rows that do not line up with it', () => {
    // A display (or a line of words read as maths) close above a derivation, and one close under it.
    const rows = [
      row('h(U)=\\log x', 40, 150, { relationX: 40 }),
      row('I(U;V)=h(U)-h(U|V)', 70, 100, { relationX: 60 }),
      row('=\\log y', 100, 160, { relationX: 0 }),
      row('=\\log z', 130, 160, { relationX: 0 }),
      row('ab+cd', 160, 300),
    ];
    expect(join(rows)).toEqual(['h(U)=\\log x', '\\begin{aligned}I(U;V)&=h(U)-h(U|V)\\\\&=\\log y\\\\&=\\log z\\end{aligned}', 'ab+cd']);
    // A row opening with a relation left of the column (`\\Rightarrow y &= …`) carries the display on: it is not cut.
    const hanging = [
      row('x=a', 40, 150, { relationX: 20 }),
      row('\\Rightarrow y=b', 70, 100, { relationX: 0 }),
      row('=c', 100, 170, { relationX: 0 }),
      row('=d', 130, 170, { relationX: 0 }),
    ];
    expect(join(hanging)).toEqual(['\\begin{gathered}x=a\\\\\\Rightarrow y=b\\\\=c\\\\=d\\end{gathered}']);
    // Rows that only happen to line up, none opening with its relation, stay one gathered display.
    expect(join([row('a=b', 40, 150, { relationX: 40 }), row('c=d', 70, 100, { relationX: 60 }), row('e=f', 100, 100, { relationX: 60 })])).toEqual([
      '\\begin{gathered}a=b\\\\c=d\\\\e=f\\end{gathered}',
    ]);
  });

  it('takes no rule for a row', () => {
    const rule: PageLine = { ...row('-', 72, 10), box: { x: 10, y: 72, width: 300, height: 1 } };
    expect(join([row('f(x)=x', 40, 100, { relationX: 30 }), rule])).toEqual(['f(x)=x', '-']);
  });

  it("keeps the one equation number of the rows, or each row's where several rows had one", () => {
    const one = joinDisplayRows([row('a=b', 40, 100, { relationX: 20 }), row('=c', 70, 120, { relationX: 0, tag: '3' })], (l) => l.box, 20);
    expect(one[0]!.math?.tag).toBe('3');
    expect(one[0]!.math?.rowTags).toBeUndefined();
    const rows = [row('a=b', 40, 100, { relationX: 20, tag: '1' }), row('c=d', 70, 100, { relationX: 20 }), row('e=f', 100, 100, { relationX: 20, tag: '2' })];
    const three = joinDisplayRows(rows, (l) => l.box, 20);
    expect(three[0]!.math?.tag).toBeUndefined();
    expect(three[0]!.math?.rowTags).toEqual(['1', undefined, '2']);
    const tags = { include_equation_tags: true, idiomatic_eqn_arrays: true };
    expect(lineMmd(three[0]!, tags)).toBe('\\[\n\\begin{align*}a&=b \\tag{1} \\\\ c&=d \\\\ e&=f \\tag{2}\\end{align*}\n\\]');
    expect(lineMmd(three[0]!, {})).not.toContain('tag');
  });
});

describe('a line that is only an equation number', () => {
  it('numbers the display row it stands under or beside', () => {
    const under = joinDisplayRows([row('a=b+c+d', 40, 100, { relationX: 20 }), row('(13)', 65, 480)], (l) => l.box, 20);
    expect(under.map((l) => [l.math?.latex, l.math?.tag])).toEqual([['a=b+c+d', '13']]);
    const beside = joinDisplayRows([row('x=y', 40, 100), { ...text(40), text: '(2.1)', box: { x: 480, y: 40, width: 30, height: 20 } }], (l) => l.box, 20);
    expect(beside.map((l) => [l.math?.latex, l.math?.tag])).toEqual([['x=y', '2.1']]);
  });

  it('takes a number the read set as a row of its own under the row for its tag (amsmath lowers it under a long row)', () => {
    // aapmsamp's long equation (3), scanned: the maths read spelled the lowered number as a second row.
    const lowered = join([row('\\begin{gathered}\\{ab\\alpha\\frac{1}{A^{2}}\\}. \\\\ (3)\\end{gathered}', 40, 100)]);
    expect(lowered).toEqual(['\\{ab\\alpha\\frac{1}{A^{2}}\\}.']);
    const tagged = joinDisplayRows([row('\\begin{gathered}a=b\\\\c=d\\\\(2.6′)\\end{gathered}', 40, 100)], (l) => l.box, 20);
    expect(tagged.map((l) => [l.math?.latex, l.math?.tag])).toEqual([['\\begin{gathered}a=b\\\\c=d\\end{gathered}', "2.6'"]]);
    // A matrix's rows are no rows of the display; a last row that is a factor stays.
    const matrix = join([row('\\begin{gathered}\\begin{pmatrix}a\\\\b\\end{pmatrix}\\\\(4)\\end{gathered}', 40, 100)]);
    expect(matrix).toEqual(['\\begin{pmatrix}a\\\\b\\end{pmatrix}']);
    expect(join([row('\\begin{gathered}a=b\\\\(x+y)\\end{gathered}', 40, 100)])).toEqual(['\\begin{gathered}a=b\\\\(x+y)\\end{gathered}']);
    // A row that ends with its own number: the number under it is a row's whose formula the read lost.
    expect(join([row('\\begin{gathered}a=b(24)\\\\(25)\\end{gathered}', 40, 100)])).toEqual(['\\begin{gathered}a=b(24)\\\\(25)\\end{gathered}']);
  });

  it('writes LaTeX that parses whatever the rows read: no accent or script sign over nothing', () => {
    // A row read as a block of rows whose last row is the next row's arrow alone: the accent took `\\end` for its argument.
    const rows = [
      row('\\begin{gathered}\\nabla\\cdot\\vec{E}=0,\\\\ \\vec\\end{gathered}', 40, 100),
      row('\\nabla\\cdot\\vec{B}=0_', 70, 100),
      row('\\hat', 100, 100),
    ];
    const out = join(rows);
    expect(out).toEqual(['\\begin{gathered}\\begin{gathered}\\nabla\\cdot\\vec{E}=0,\\end{gathered}\\\\\\nabla\\cdot\\vec{B}=0\\end{gathered}']);
    expect(texError(out[0]!)).toBeUndefined();
    expect(texError(`\\begin{gathered}${rows.map((r) => r.math!.latex).join('\\\\')}\\end{gathered}`)).toMatch(/Missing argument/);
  });

  it('stays a line where no display row stands by it', () => {
    expect(join([text(0), { ...text(30), text: '(4)' }])).toEqual(['Some words of prose here', '(4)']);
  });
});

describe('relationSplit', () => {
  it('cuts before the first relation outside braces', () => {
    expect(relationSplit('\\sum_{i=1}^{n}x_{i}\\leq y=z')).toEqual(['\\sum_{i=1}^{n}x_{i}', '\\leq y=z']);
    expect(relationSplit('\\frac{a}{b}')).toBeUndefined();
    expect(relationSplit('\\lefteqn{x}<1')).toEqual(['\\lefteqn{x}', '<1']);
    expect(relationSplit('\\{x\\}=y')).toEqual(['\\{x\\}', '=y']);
    expect(relationSplit('{\\}}=y')).toEqual(['{\\}}', '=y']);
    // Inside a block of rows a relation is no cell's start.
    expect(relationSplit('\\begin{gathered}a=b\\\\c\\end{gathered}')).toBeUndefined();
    expect(relationSplit('\\begin{matrix}a\\end{matrix}=b')).toEqual(['\\begin{matrix}a\\end{matrix}', '=b']);
  });
});
