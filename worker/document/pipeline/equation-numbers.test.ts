import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AS_RECOGNISED, compileLatex, type LatexPdf } from '../../../test/support/latex-pdf.js';
import { convertDocument } from './index.js';

/**
 * Equation numbers where amsmath sets them close to the maths or away from the right margin, on
 * pages typeset here: a multline's number a \multlinegap from its last row (one text line with
 * it), `\tag{*}`, a flalign's column pairs spread to the margins (one display), and with leqno numbers at the left, a long multline's raised over its first row.
 * The same in lmodern's Type 1 maths fonts. Each is the display's `\tag{}` with include_equation_tags, and nowhere without it.
 */

const PARAGRAPH = 'Some words of a paragraph that runs across the whole column before the equation we show here,';
const MULTLINE = String.raw`\begin{multline} a+b+c+d+e+f+g+h+i+j+k+l+m+n+o+p+q+r+s+t+u+v\\ =m+n+o+p+q+r+s+t+u+v+w+x+y+z \end{multline}`;
const PAGE = String.raw`${PARAGRAPH}
${MULTLINE}
and a paragraph between the two displays, long enough to run across the whole width of the column,
\begin{equation} e^{i\pi}+1=0 \tag{$*$} \end{equation}
and a flalign, its column pairs at the margins,
\begin{flalign} x&=y & a&=b \\ x'&=y' & a'&=b' \end{flalign}
closes the page.`;

// Tags of letters (`\tag{A}`, `\tag*{(B')}`), and a row without a number between them.
const LETTERED = String.raw`\begin{align} x^2 + y^2 &= 1 \tag{A} \\ x &= \cos t \notag \\ y &= \sin t \tag*{(B')} \end{align}`;

const pdfs: LatexPdf[] = [];
const mmd: Record<string, { plain: string; tagged: string }> = {};

beforeAll(async () => {
  const pages = {
    reqno: [PAGE, '\\usepackage{amsmath}'],
    leqno: [`${PARAGRAPH}\n${MULTLINE}\nand\n\\begin{equation} x^2 \\ge 0 \\end{equation}\ncloses the page.`, '\\usepackage[leqno]{amsmath}'],
    // lmodern's Type 1 maths fonts (LMMathItalic10, LMMathSymbols10) are maths fonts like CMMI and CMSY.
    lmodern: [`${PARAGRAPH}\n\\begin{equation} a^2 = b^2 + c^2 \\end{equation}\ncloses the page.`, '\\usepackage{amsmath}\\usepackage{lmodern}'],
    lettered: [`${PARAGRAPH}\n${LETTERED}\ncloses the page.`, '\\usepackage{amsmath}'],
  };
  for (const [name, [body, preamble]] of Object.entries(pages)) {
    const pdf = await compileLatex(body, { packages: 'amssymb', preamble });
    pdfs.push(pdf);
    const plain = (await convertDocument(pdf.path, AS_RECOGNISED)).mmd;
    const tagged = (await convertDocument(pdf.path, { ...AS_RECOGNISED, includeEquationTags: true })).mmd;
    mmd[name] = { plain, tagged };
  }
}, 60_000);

afterAll(async () => {
  for (const pdf of pdfs) await pdf.cleanup();
});

const LAST_ROW = '=m+n+o+p+q+r+s+t+u+v+w+x+y+z';

describe('equation numbers beside display maths', () => {
  it("takes a multline's number off its last row", () => {
    expect(mmd.reqno!.tagged).toContain(`${LAST_ROW}\\end{gathered} \\tag{1}\n\\]`);
    expect(mmd.reqno!.plain).toContain(`${LAST_ROW}\\end{gathered}\n\\]`);
  });

  it('reads \\tag{*} as a tag', () => {
    expect(mmd.reqno!.tagged).toContain('e^{i\\pi}+1=0 \\tag{*}\n\\]');
    expect(mmd.reqno!.plain).toContain('e^{i\\pi}+1=0\n\\]');
  });

  it("reads a flalign's column pairs at the margins as one display, numbered by row", () => {
    expect(mmd.reqno!.tagged).toContain("\\begin{align*}x & =y & a & =b \\tag{2} \\\\ x' & =y' & a' & =b' \\tag{3}\\end{align*}");
    expect(mmd.reqno!.plain).toContain("\\begin{aligned}x & =y & a & =b \\\\ x' & =y' & a' & =b'\\end{aligned}");
  });

  it('takes numbers at the left (leqno), one raised over a long first row too', () => {
    expect(mmd.leqno!.tagged).toContain(`${LAST_ROW}\\end{gathered} \\tag{1}\n\\]`);
    expect(mmd.leqno!.tagged).toContain('x^{2}\\geq0 \\tag{2}\n\\]');
  });

  it('finds a numbered display set in Latin Modern (lmodern)', () => {
    expect(mmd.lmodern!.tagged).toContain('\\[\na^{2}=b^{2}+c^{2} \\tag{1}\n\\]');
  });

  it('reads tags of letters as tags, a row without one left untagged', () => {
    expect(mmd.lettered!.tagged).toContain("\\begin{align*}x^{2}+y^{2} & =1 \\tag{A} \\\\ x & =\\cos t \\\\ y & =\\sin t \\tag{B'}\\end{align*}");
  });

  it('leaves no number in the text without the option', () => {
    for (const { plain } of Object.values(mmd)) expect(plain).not.toMatch(/\(([123AB]['’]?|\*|∗)\)/u);
  });
});
