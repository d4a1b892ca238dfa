import { describe, expect, it } from 'vitest';
import { hangingFontsCached, isHanging } from './baseline-clusters.js';
import type { Glyph } from './text-layer.js';

const glyph = (font: string, ch = 'x'): Glyph => ({ ch, x: 0, w: 5, base: 100, size: 10, font, bold: false, mathFont: false });
/** A six-letter subset tag, different for each n, as pdfTeX writes one per embedded subset. */
const tag = (n: number) => Array.from({ length: 6 }, (_, k) => String.fromCharCode(65 + (Math.floor(n / 26 ** k) % 26))).join('');

describe('isHanging', () => {
  it('tells hanging glyphs (CMEX, a CMSY radical) whatever their subset tag', () => {
    expect(isHanging(glyph('PFTUWT+CMEX10', '∑'))).toBe(true);
    expect(isHanging(glyph('QWERTY+CMSY10', '√'))).toBe(true);
    expect(isHanging(glyph('QWERTY+CMSY10', '≤'))).toBe(false);
    expect(isHanging(glyph('RAREMC+CMR10'))).toBe(false);
  });

  it('keeps one cache entry per font, not per document, and a bounded number overall', () => {
    // 2,000 documents' worth of the same eight TeX fonts, each embedding with a tag of its own.
    const fonts = ['CMR10', 'CMMI10', 'CMSY10', 'CMEX10', 'CMR7', 'CMMI7', 'CMBX12', 'CMTI10'];
    for (let d = 0; d < 2_000; d++) for (const [k, f] of fonts.entries()) isHanging(glyph(`${tag(d * 8 + k)}+${f}`));
    expect(hangingFontsCached()).toBeLessThanOrEqual(fonts.length + 3);
    // Names a customer's files make up are not kept without limit either.
    for (let n = 0; n < 5_000; n++) isHanging(glyph(`Custom-Font-${n}`));
    expect(hangingFontsCached()).toBeLessThanOrEqual(1_024);
  });
});
