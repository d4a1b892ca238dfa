import { describe, expect, it } from 'vitest';
import type { PdfGlyph } from './page-reader.js';
import { glyphSymbol, symbolsFrom } from './symbols.js';

/** A CMMI10 glyph as pdf.js hands it back when the font's ToUnicode map does not name it: the raw code. */
function cmmiGlyph(unicode: string, code: number, box = { x0: 0, y0: 0, x1: 5, y1: 7 }): PdfGlyph {
  const font = { name: 'FZVFOY+CMMI10', family: 'math-italic' as const, italic: false, ascent: 0.7, descent: 0.2 };
  return { unicode, code, font, size: 10, baseline: 7, x0: 0, x1: 5, box, exactInk: true };
}

describe('maths italic glyphs known only by their code (OML)', () => {
  it('reads the comma, the full stop and Greek from the code where pdf.js returned the raw code', () => {
    expect(glyphSymbol(cmmiGlyph(';', 0x3b))?.latex).toBe(',');
    expect(glyphSymbol(cmmiGlyph(':', 0x3a))?.latex).toBe('.');
    expect(glyphSymbol(cmmiGlyph('\u001b', 0x1b))).toMatchObject({ latex: '\\sigma', style: 'italic' });
    expect(glyphSymbol(cmmiGlyph('\u0016', 0x16))?.latex).toBe('\\mu');
    expect(glyphSymbol(cmmiGlyph('', 0x27))?.latex).toBe('\\varphi');
    expect(glyphSymbol(cmmiGlyph('@', 0x40))?.latex).toBe('\\partial');
  });

  it('keeps what pdf.js named and the letters OML shares with ASCII', () => {
    expect(glyphSymbol(cmmiGlyph(',', 0x3b))?.latex).toBe(',');
    expect(glyphSymbol(cmmiGlyph('σ', 0x1b))?.latex).toBe('\\sigma');
    expect(glyphSymbol(cmmiGlyph('x', 0x78))).toMatchObject({ latex: 'x', style: 'italic' });
    expect(glyphSymbol(cmmiGlyph('<', 0x3c))?.latex).toBe('<');
  });

  it('reads code 44 as the left hook on the arrow axis and as the comma of a WinAnsi maths italic below the baseline', () => {
    expect(glyphSymbol(cmmiGlyph(',', 44, { x0: 0, y0: 2, x1: 3, y1: 5 }))?.latex).toBe('@lhook');
    expect(glyphSymbol(cmmiGlyph(',', 44, { x0: 0, y0: 6, x1: 1.3, y1: 9.5 }))?.latex).toBe(',');
  });
});

describe('maths symbol glyphs known only by their code (OMS)', () => {
  const symbolGlyph = (font: string, unicode: string, code: number): PdfGlyph => ({
    ...cmmiGlyph(unicode, code),
    font: { name: font, family: 'symbols', italic: false, ascent: 0.7, descent: 0.2 },
  });

  it("reads a CMSY radical handed back as 'p' and a MathDesign symbol font's unnamed glyphs from the code", () => {
    expect(glyphSymbol(symbolGlyph('OHXPEK+CMSY10', 'p', 0x70))?.latex).toBe('\\sqrt');
    expect(glyphSymbol(symbolGlyph('OHXPEK+CMSY10', 'j', 0x6a))?.latex).toBe('|');
    const mathDesign = (unicode: string, code: number) => glyphSymbol(symbolGlyph('XWLOMP+MathDesign-UT-Regular-Symbol-10', unicode, code))?.latex;
    expect([mathDesign('\u0000', 0), mathDesign('\u0001', 1), mathDesign('!', 0x21), mathDesign('f', 0x66), mathDesign('g', 0x67)]).toEqual([
      '-',
      '\\cdot',
      '\\rightarrow',
      '\\{',
      '\\}',
    ]);
  });

  it('keeps what pdf.js named and the calligraphic capitals at their ASCII codes', () => {
    expect(glyphSymbol(symbolGlyph('CMSY10', '\u221A', 0x70))?.latex).toBe('\\sqrt');
    expect(glyphSymbol(symbolGlyph('CMSY10', '\u2264', 0x14))?.latex).toBe('\\leq');
    expect(glyphSymbol(symbolGlyph('CMSY10', 'L', 0x4c))).toMatchObject({ latex: 'L', style: 'calligraphic' });
  });
});

describe('letters of a text font TeX does not name', () => {
  const termes = (name: string, italic: boolean): PdfGlyph => ({
    ...cmmiGlyph('f', 0x66),
    font: { name, family: 'other', italic, ascent: 0.7, descent: 0.2 },
  });

  it("are upright in the roman (\\text{if} beside maths letters), bold in the bold (newtx's \\mathbf{q}) and unstyled in the italic", () => {
    expect(glyphSymbol(termes('KNGXFZ+TeXGyreTermesX-Regular', false))?.style).toBe('upright');
    expect(glyphSymbol(termes('OURQFB+TeXGyreTermesX-Bold', false))?.style).toBe('bold');
    expect(glyphSymbol(termes('BDFFPL+TeXGyreTermesX-Italic', true))?.style).toBeUndefined();
  });
});

describe('ligatures of a text font in a display', () => {
  it('are their letters, upright, each with a share of the glyph box', () => {
    const fi: PdfGlyph = {
      ...cmmiGlyph('\uFB01', 0x0c, { x0: 10, y0: 0, x1: 16, y1: 7 }),
      font: { name: 'CMR10', family: 'roman', italic: false, ascent: 0.7, descent: 0.2 },
    };
    const letters = symbolsFrom([fi], []);
    expect(letters.map((s) => [s.latex, s.style, s.box.x0, s.box.x1])).toEqual([
      ['f', 'upright', 10, 13],
      ['i', 'upright', 13, 16],
    ]);
  });
});

describe('CJK characters in a display', () => {
  it('are text, not maths symbols', () => {
    const glyph: PdfGlyph = { ...cmmiGlyph('且', 0x4e14), font: { name: 'SimSun', family: 'other', italic: false, ascent: 0.9, descent: 0.1 } };
    expect(glyphSymbol(glyph)?.latex).toBe('\\text{且}');
  });
});

describe('extension-font glyphs (CMEX)', () => {
  const cmex = (unicode: string, code: number, y0 = 0): PdfGlyph => ({
    ...cmmiGlyph(unicode, code, { x0: 0, y0, x1: 5, y1: y0 + 6 }),
    font: { name: 'EHKDJA+CMEX8', family: 'extension', italic: false, ascent: 0.04, descent: 0.96 },
  });

  it("are read by CMEX's code where pdf.js returned the raw code (pdfTeX, Ghostscript)", () => {
    expect(glyphSymbol(cmex('P', 0x50))?.latex).toBe('\\sum');
    expect(glyphSymbol(cmex('\r', 0x0d))).toMatchObject({ latex: '\\|', part: 'extender' });
    expect(glyphSymbol(cmex('\u0010', 0x10))?.latex).toBe('(');
  });

  it('are read by their names where a re-subset font numbered them afresh (Acrobat Distiller)', () => {
    // Such a font sets a text-style \sum at code 2 (CMEX's `[`) and the \| extender at code 3 (CMEX's `]`).
    expect(glyphSymbol(cmex('\u2211', 2))?.latex).toBe('\\sum');
    expect(glyphSymbol(cmex('(', 4))?.latex).toBe('(');
    const bar = [0, 5, 10].map((y) => cmex('\u2225', 3, y));
    expect(symbolsFrom(bar, []).map((s) => [s.latex, s.box.y0, s.box.y1])).toEqual([['\\|', 0, 16]]);
  });

  it("keep CMEX's code where the name says the same symbol", () => {
    expect(glyphSymbol(cmex('\u2211', 0x58))?.latex).toBe('\\sum');
    expect(glyphSymbol(cmex('\u23AA', 0x3e))).toMatchObject({ latex: '\\{', part: 'extender' });
  });
});

describe('blackboard-font glyphs known by their code (MSBM)', () => {
  const msbm = (unicode: string, code: number): PdfGlyph => ({
    ...cmmiGlyph(unicode, code),
    font: { name: 'EHKDJB+MSBM10', family: 'blackboard', italic: false, ascent: 0.7, descent: 0.2 },
  });

  it("read the wide hat and tilde at MSBM's codes where pdf.js returned the raw code", () => {
    expect(glyphSymbol(msbm('[', 0x5b))?.latex).toBe('\\widehat');
    expect(glyphSymbol(msbm('^', 0x5e))?.latex).toBe('\\widetilde');
  });

  it('read a named letter at those codes as the letter (a font numbered afresh)', () => {
    expect(glyphSymbol(msbm('R', 0x5b))).toMatchObject({ latex: 'R', style: 'blackboard' });
  });
});
