import { describe, expect, it } from 'vitest';
import { displaysOnPage } from '../../../test/support/display-page.js';

/**
 * multline's rows step across the column (first flush left, last flush right, the rest centred),
 * short rows without overlapping sideways: one display (multline-rows.ts). An align whose tall rows
 * each carry an equation number is one display by its column of relations (numbered-align-rows.ts),
 * while two numbered equations in a row stay two.
 */

const page = displaysOnPage([
  String.raw`\begin{multline} a + b \\ c + d \end{multline}`,
  String.raw`\begin{multline*} A + B + C + D \\ = E + F + G \\ - H + I + J \end{multline*}`,
  String.raw`\begin{itemize} \item An item with a multline: \begin{multline} a \\ c \end{multline} \end{itemize}`,
  // A class that opens align's rows up (asmejour's tall rows leave 1.2 em of white): \jot set wider.
  String.raw`{\setlength{\jot}{11pt} \begin{align} f(\lambda T) = {}& \frac{1}{\sigma T^4} \int_0^\lambda \frac{2\pi h c_o^2}{\lambda^5 \left[\exp(h c_o/k_B T\lambda) - 1\right]}\, d\lambda \\
    = {}& \frac{1}{\sigma T^4} \frac{2\pi k_B^4 T^4}{h^3 c_o^2} \int^\infty_{c_2/\lambda T} \frac{t^3}{e^t - 1}\, dt \end{align}}`,
  String.raw`{\setlength{\jot}{11pt} \begin{equation} x + y = 1 \end{equation} \begin{equation} x + z = 2 \end{equation}}`,
]);

describe('multline rows and numbered align rows', () => {
  it('reads a multline of short rows, numbered or not, in a list or not, as one display', () => {
    const displays = page.displays();
    expect(displays).toContain('\\begin{gathered}a+b\\\\c+d\\end{gathered}');
    expect(displays).toContain('\\begin{gathered}A+B+C+D\\\\=E+F+G\\\\-H+I+J\\end{gathered}');
    expect(displays).toContain('\\begin{gathered}a\\\\c\\end{gathered}');
  });

  it('keeps the tall numbered rows of one align one display', () => {
    expect(page.displays().some((d) => d.startsWith('\\begin{aligned}f(\\lambda T)&=\\frac{1}{\\sigma T^{4}}'))).toBe(true);
  });

  it('leaves two numbered equations in a row two displays', () => {
    expect(page.displays()).toContain('x+y=1');
    expect(page.displays()).toContain('x+z=2');
  });
});
