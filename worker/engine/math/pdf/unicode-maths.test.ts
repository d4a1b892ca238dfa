import { describe, expect, it } from 'vitest';
import { isMathFontName } from '../unicode-latex.js';
import { classifyFont, glyphToken } from './tex-fonts.js';

describe('glyphs pdf.js names by another character', () => {
  it("reads the maths italic font's tilde-coded glyph as the vector accent, and a roman tilde as a tilde", () => {
    expect(glyphToken('~', 'math-italic')?.latex).toBe('\\vec');
    expect(glyphToken('~', 'roman')?.latex).toBe('\\tilde');
  });
});

describe('Unicode maths alphanumerics (unicode-math fonts)', () => {
  it('reads mathematical Greek and the italic h as the letters they are, with their style', () => {
    expect(glyphToken('𝜎', 'unicode-math')).toEqual({ latex: '\\sigma', style: 'italic' });
    expect(glyphToken('𝝈', 'unicode-math')).toEqual({ latex: '\\sigma', style: 'bold' });
    expect(glyphToken('𝛤', 'unicode-math')).toEqual({ latex: '\\Gamma', style: 'italic' });
    expect(glyphToken('𝜕', 'unicode-math')?.latex).toBe('\\partial');
    expect(glyphToken('ℎ', 'unicode-math')).toEqual({ latex: 'h', style: 'italic' });
    expect(glyphToken('𝑥', 'unicode-math')).toEqual({ latex: 'x', style: 'italic' });
  });

  it('reads the combining marks unicode-math fonts draw accents with as the accents', () => {
    const marks = ['\u0302', '\u0303', '\u0304', '\u0307', '\u0308', '\u030C', '\u0301', '\u0300', '\u0306'];
    expect(marks.map((mark) => glyphToken(mark, 'unicode-math')?.latex)).toEqual([
      '\\hat',
      '\\tilde',
      '\\bar',
      '\\dot',
      '\\ddot',
      '\\check',
      '\\acute',
      '\\grave',
      '\\breve',
    ]);
  });
});

describe('newtx and newpx fonts', () => {
  it('classifies their extension, symbol and maths italic fonts as the TeX families they copy', () => {
    expect(['AWCBGV+txexs', 'pxbexs', 'EXGHJM+txsys', 'HSHCBP+NewTXMI', 'GBYKCD+NewTXMI7', 'NewPXBMI'].map(classifyFont)).toEqual([
      'extension',
      'extension',
      'symbols',
      'math-italic',
      'math-italic',
      'math-italic',
    ]);
    // txexas holds newtx's own additions, not CMEX's layout.
    expect(classifyFont('RBHSNX+txexas')).toBe('other');
  });

  it('reads the calligraphic alphabets newtx and others take \\mathcal from as calligraphic letters', () => {
    const names = ['SPZXDG+BoondoxCalligraphic-Regular-Slant_-300', 'YCSGMU+BoondoxCalligraphic-Regular', 'ABCDEF+dutchcal-r', 'EUSM10'];
    expect(names.map(classifyFont)).toEqual(['calligraphic', 'calligraphic', 'calligraphic', 'calligraphic']);
    expect(glyphToken('C', classifyFont(names[0]!))).toEqual({ latex: 'C', style: 'calligraphic' });
    // mathrsfs's script is \mathscr, a different alphabet.
    expect(glyphToken('F', classifyFont('RSFS10'))).toEqual({ latex: 'F', style: 'script' });
  });

  it("classifies MathDesign's and kpfonts' maths fonts, which keep TeX's layouts under their own names", () => {
    const names = [
      'HSWYTW+MathDesign-UT-Regular-Extension-10',
      'XWLOMP+MathDesign-UT-Regular-Symbol-10',
      'VUIYZF+MathDesign-UT-Regular-Italic-MathItalic-10',
      'OREBPM+Kp--M-Ex-Regular',
      'JAYNQO+Kp--M-Sy-Regular',
      'FXCIKI+Kp--M-Italic',
    ];
    expect(names.map(classifyFont)).toEqual(['extension', 'symbols', 'math-italic', 'extension', 'symbols', 'math-italic']);
    expect(names.every(isMathFontName)).toBe(true);
    // Their text fonts and MathDesign's own symbol font (not OMS) are not maths fonts.
    expect(['MathDesign-UT-Regular-OT1-10', 'MathDesign-UT-Regular-MathDesignSymbolA-10', 'Kp-Regular'].map(classifyFont)).toEqual(['other', 'other', 'other']);
    expect(isMathFontName('MKSPTN+Utopia-Italic')).toBe(false);
  });

  it('reads a symbol named with a variation selector (a larger size) as the symbol', () => {
    expect(glyphToken('∑\uFE01', 'extension')?.latex).toBe('\\sum');
    expect(glyphToken('(\uFE03', 'extension')?.latex).toBe('(');
    expect(glyphToken('∏\uFE01', 'other')?.latex).toBe('\\prod');
  });
});
