import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLatex, type LatexPdf } from '../../../test/support/latex-pdf.js';
import { convertDocument } from './index.js';

/**
 * pdf.js gives cmmi's `\vec` as a zero-width combining mark and places the letter under it about the
 * accent's width left of its ink (text-layer.ts underAccentShift). Before the correction a display's
 * last `\vec{w}` fell outside the display (`a+`), and an inline `\vec{v}` overlapped the word before
 * it, which was then read as maths (`\text{Let}\vec{v}`).
 */
const PROSE = 'Words of a paragraph that runs across the whole width of the text block, so that the page has prose lines.';

describe('letters under a maths accent on a born-digital page', () => {
  let pdf: LatexPdf;
  let mmd = '';
  beforeAll(async () => {
    const body = [
      'Let $\\vec{v}$ be a vector and let $a+\\vec{w}$ be another one, so that the sum $\\vec{u}+\\vec{v}$ is one too; these words fill the line.',
      PROSE,
      '\\[ a + \\vec{w} \\]',
      PROSE,
      '\\[ F = m\\vec{a} \\]',
      PROSE,
      '\\[ \\vec{u} \\cdot \\vec{v} = 0 \\]',
      PROSE,
    ].join('\n');
    pdf = await compileLatex(body);
    ({ mmd } = await convertDocument(pdf.path));
  }, 60_000);
  afterAll(() => pdf?.cleanup());

  it('keeps the accented letter that ends a display inside it', () => {
    const displays = [...mmd.matchAll(/\\\[\n(.*?)\n\\\]/gu)].map((m) => m[1]!.replace(/\s+/gu, ''));
    expect(displays).toEqual(['a+\\vec{w}', 'F=m\\vec{a}', '\\vec{u}\\cdot\\vec{v}=0']);
  });

  it('leaves the word before an inline accented letter in the prose', () => {
    expect(mmd).toContain('Let \\( \\vec{v} \\) be a vector');
    expect(mmd).toContain('the sum \\( \\vec{u}+\\vec{v} \\) is one too');
  });
});
