import { describe, expect, it } from 'vitest';
import { normaliseLatex } from '../../engine/math/latex-normalise.js';
import { displaysOnPage } from '../../../test/support/display-page.js';

/**
 * A numbered display of words alone (`\text{…}`, autonum's test rows): centred away from the
 * paragraphs' edges with an equation number level with it, it is a display, though it holds no
 * maths glyph. A centred line of words without a number stays text.
 */

const page = displaysOnPage([
  String.raw`\begin{equation} \text{Check this line for an equation number} \end{equation}`,
  String.raw`\begin{center} A centred line of words without a number \end{center}`,
]);

describe('a numbered display of words', () => {
  it('is a display of its words, its number set apart', () => {
    expect(page.displays()).toContain(normaliseLatex('\\text{Check this line for an equation number}'));
    expect(page.mmd()).not.toMatch(/number \(1\)/u);
  });

  it('leaves a centred line of words without a number to the text', () => {
    expect(page.displays().some((d) => d.includes('centred'))).toBe(false);
    expect(page.mmd()).toContain('A centred line of words without a number');
  });
});
