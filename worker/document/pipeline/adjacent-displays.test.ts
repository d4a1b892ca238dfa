import { describe, expect, it } from 'vitest';
import { displaysOnPage } from '../../../test/support/display-page.js';

/**
 * Displays one under the other with no text between them are two displays, however close their
 * limits and fractions bring their ink; the rows of one gather, tall or short, stay one display
 * (adjacent-displays.ts). A fraction set inline in the paragraph after a display is the
 * paragraph's, not the display's last row (inline-fraction-parts.ts).
 */

const page = displaysOnPage([
  String.raw`\[ \left|\frac{a}{b}\right| \le \|v\| \] \[ \iint_{D} f\,dx\,dy = 0 \]`,
  String.raw`\[ x^2 + y^2 = 1 \] \[ \sum_{i=1}^{n} a_i = b \]`,
  String.raw`\begin{gather*} \frac{a+b}{c} = d \\ \sum_{k=0}^{n} \binom{n}{k} = 2^n \\ a = b \end{gather*}`,
  String.raw`Suppose that there exists a function $C(x)$ such that
\begin{equation*} C(x)\leq c(x)+\sum_{i=1}^m c_i(x)|y|^{p_i-p}-\frac{e(x)}{|y|^{p-2}y} \end{equation*}
Denote $\vec w(x)=A(x)\frac{\|\nabla y\|^{p-2}\nabla y}{|y|^{p-2}y}$. The function $\vec w(x)$ is well defined.`,
]);

describe('displays with nothing between them', () => {
  it('reads each display of a pair as its own, fractions and limits between their rows', () => {
    const displays = page.displays();
    expect(displays).toContain('|\\frac{a}{b}|\\leq\\|v\\|');
    expect(displays).toContain('\\iint_{D}fdxdy=0');
    expect(displays).toContain('x^{2}+y^{2}=1');
    expect(displays).toContain('\\sum_{i=1}^{n}a_{i}=b');
  });

  it('keeps the rows of one gather, a fraction and a sum among them, one display', () => {
    expect(page.displays()).toContain('\\begin{gathered}\\frac{a+b}{c}=d\\\\\\sum_{k=0}^{n}\\binom{n}{k}=2^{n}\\\\a=b\\end{gathered}');
  });

  it('leaves an inline fraction under a display to its paragraph', () => {
    expect(page.displays()).toContain('C(x)\\leq c(x)+\\sum_{i=1}^{m}c_{i}(x)|y|^{p_{i}-p}-\\frac{e(x)}{|y|^{p-2}y}');
    expect(page.mmd()).toMatch(/Denote.*\\frac\{\\\|\\nabla y\\\|\^\{p-2\}\\nabla y\}\{\|y\|\^\{p-2\}y\} \\\) \. The/u);
  });
});

describe('displays over displays: a matrix display, a split equation', () => {
  const matrices = displaysOnPage([
    String.raw`\[ a \equiv b \pmod{m} \quad a \bmod b \] \begin{equation} \begin{split} f(x) &= (x+1)^2 \\ &= x^2 + 2x + 1 \end{split} \end{equation}`,
    String.raw`\[ \iint_{V} g\,dV = 1 \] \[ \begin{pmatrix} a_1 & \cdots & a_n \\ \vdots & \ddots & \vdots \\ b_1 & \cdots & b_n \end{pmatrix} \] \[ \begin{Bmatrix} 1 & 2 \\ 3 & 4 \end{Bmatrix} \ne 0 \]`,
  ]);

  it('is a display of its own, though the parser finds no baseline in it to measure the skips by', () => {
    expect(matrices.displays().slice(2)).toEqual([
      '\\iint_{V}gdV=1',
      '\\begin{pmatrix}a_{1}&\\cdots&a_{n}\\\\\\vdots&\\ddots&\\vdots\\\\b_{1}&\\cdots&b_{n}\\end{pmatrix}',
      '\\begin{Bmatrix}1&2\\\\3&4\\end{Bmatrix}\\neq0',
    ]);
  });

  it('parts a display from the split equation under it', () => {
    expect(matrices.displays().slice(0, 2)).toEqual(['a\\equiv b(\\text{mod}m)a\\text{mod}b', '\\begin{aligned}f(x)&=(x+1)^{2}\\\\&=x^{2}+2x+1\\end{aligned}']);
  });
});

describe('a display over a split equation, after a line of text', () => {
  // At a page's foot TeX shrinks the display skips (10 pt minus 5) to fit (here to 5.8 pt); with the split's first
  // row setting an exponent above its strut, 0.55 em of white is left between their strutted
  // boxes (a gather's rows leave at most 0.49). The skips are set shrunk here.
  const page = displaysOnPage([
    String.raw`Mod:\abovedisplayskip=5.8pt\belowdisplayskip=5.8pt
\[ a \equiv b \pmod{m} \quad a \bmod b \]
\begin{equation} \begin{split} f(x) &= (x+1)^2 \\ &= x^2 + 2x + 1 \end{split} \end{equation}`,
  ]);

  it('parts them', () => {
    expect(page.displays()).toEqual(['a\\equiv b(\\text{mod}m)a\\text{mod}b', '\\begin{aligned}f(x)&=(x+1)^{2}\\\\&=x^{2}+2x+1\\end{aligned}']);
  });
});
