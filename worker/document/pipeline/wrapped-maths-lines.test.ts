import { describe, expect, it } from 'vitest';
import { displaysOnPage } from '../../../test/support/display-page.js';

/**
 * An inline formula too wide for what is left of its paragraph's line starts the next line, alone
 * on it: it carries on the paragraph (wrapped-maths-lines.ts) and is no row of the display under it.
 */

const page = displaysOnPage([
  // A class with tight display skips (thucoursework's align* stands an em under the line above it).
  // Braces keep TeX from breaking the formula at its relations, and \sloppy lets it move all of it to the next line.
  String.raw`{\sloppy\setlength{\abovedisplayskip}{2pt} Words of a paragraph that run on until the formula no longer fits, and moreover \({H(Y|Z)=H(Y)\Rightarrow I(Y;Z)=0\Rightarrow H(Z|Y)=H(Z)}\)
\begin{align*} H(X|Y,Z) &= 0 \\ H(X,Y,Z) &= H(Y,Z) \end{align*}}`,
]);

describe('a formula wrapped onto a line of its own', () => {
  it('stays in its paragraph, and the align under it is read alone', () => {
    const displays = page.displays();
    expect(displays.some((d) => d.includes('H(Z|Y)'))).toBe(false);
    expect(page.mmd()).toMatch(/moreover\s*\\\( H\(Y\|Z\)=H\(Y\)\\Rightarrow/u);
    expect(displays).toContain('\\begin{aligned}H(X|Y,Z)&=0\\\\H(X,Y,Z)&=H(Y,Z)\\end{aligned}');
  });
});
