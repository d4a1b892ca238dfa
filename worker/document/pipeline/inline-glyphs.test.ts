import { describe, expect, it } from 'vitest';
import { isMathOnly, lineToLatex, lineToMmd } from './inline.js';
import { glyphToLatex, isMathChar, isMathFontName, joinLatex } from '../../engine/math/unicode-latex.js';
import { glyphsToLines, type Glyph } from './text-layer.js';

/** Lays out `runs` left to right on one baseline; each run has its own font, size and vertical shift. */
function line(runs: { text: string; font?: string; size?: number; dy?: number }[]) {
  const glyphs: Glyph[] = [];
  let x = 72;
  for (const r of runs) {
    const size = r.size ?? 10;
    for (const ch of Array.from(r.text)) {
      glyphs.push({ ch, x, w: size * 0.5, base: 100 - (r.dy ?? 0), size, font: r.font ?? 'Helvetica', bold: false, mathFont: isMathFontName(r.font ?? '') });
      x += size * 0.5;
    }
  }
  const lines = glyphsToLines(glyphs);
  expect(lines).toHaveLength(1);
  return lines[0];
}

describe('glyph map', () => {
  it('maps Greek, relations and big operators one glyph at a time', () => {
    expect(['α', '≤', '∑', 'Ω', '∞', '→'].map(glyphToLatex)).toEqual(['\\alpha', '\\leq', '\\sum', '\\Omega', '\\infty', '\\rightarrow']);
    expect(glyphToLatex('\u{1d465}')).toBe('x'); // mathematical italic x
    expect(isMathChar('β') && isMathChar('∫') && !isMathChar('a')).toBe(true);
  });

  it('maps arrows, AMS relations and negations to their commands, never to raw Unicode', () => {
    const glyphs = ['⇌', '↦', '⟶', '↪', '≰', '⊊', '∤', '≃', '⊎', '∴', 'ℜ', '⊤'];
    expect(glyphs.map(glyphToLatex)).toEqual([
      '\\rightleftharpoons',
      '\\mapsto',
      '\\longrightarrow',
      '\\hookrightarrow',
      '\\nleq',
      '\\subsetneq',
      '\\nmid',
      '\\simeq',
      '\\uplus',
      '\\therefore',
      '\\Re',
      '\\top',
    ]);
    expect(glyphs.every(isMathChar)).toBe(true);
  });

  it('maps symbols prose uses too without taking them for maths by themselves', () => {
    expect(['†', '✓', 'ı', '♣'].map(glyphToLatex)).toEqual(['\\dagger', '\\checkmark', '\\imath', '\\clubsuit']);
    expect(['†', '✓', 'ı', '♣'].some(isMathChar)).toBe(false);
  });

  it('knows TeX and Symbol maths fonts by name, subset prefix or not', () => {
    expect(['ABCDEF+CMMI10', 'CMSY7', 'CMEX10', 'Symbol'].every(isMathFontName)).toBe(true);
    expect(isMathFontName('Helvetica-Bold')).toBe(false);
  });

  it('keeps a space after a control word before a letter', () => {
    expect(joinLatex(['\\alpha', 'x', '\\leq', '1'])).toBe('\\alpha x\\leq1');
  });
});

describe('inline maths in a line', () => {
  const delims = (latex: string) => `\\(${latex}\\)`;

  it('wraps a run of maths glyphs in the inline delimiters and leaves words alone', () => {
    const l = line([{ text: 'Let ' }, { text: 'α ≤ β', font: 'Symbol' }, { text: ' hold.' }]);
    expect(lineToMmd(l, [], delims)).toBe('Let \\(\\alpha \\leq \\beta\\) hold.');
  });

  it('takes the operands of an operator into the run', () => {
    const l = line([{ text: 'when x ' }, { text: '≤', font: 'Symbol' }, { text: ' 1, stop' }]);
    expect(lineToMmd(l, [], delims)).toBe('when \\(x \\leq 1\\), stop');
  });

  it('turns a raised smaller glyph into a superscript and a lowered one into a subscript', () => {
    const l = line([
      { text: 'so ' },
      { text: 'x' },
      { text: '2', size: 7, dy: 4 },
      { text: ' and ' },
      { text: 'a' },
      { text: 'i', size: 7, dy: -2 },
      { text: ' here' },
    ]);
    expect(lineToMmd(l, [], delims)).toBe('so \\(x^{2}\\) and \\(a_{i}\\) here');
  });

  it('leaves a word with raised footnote marks in the prose and writes the marks over nothing', () => {
    const l = line([
      { text: 'John Lienhard' },
      { text: '1,†', size: 7, dy: 4 },
      { text: ', Luis Silva' },
      { text: '*', size: 7, dy: 4 },
      { text: ' and the “beauty”.' },
      { text: '2', size: 7, dy: 4 },
    ]);
    expect(lineToMmd(l, [], delims)).toBe('John Lienhard \\({}^{1,\\dagger}\\), Luis Silva \\({}^{*}\\) and the “beauty”. \\({}^{2}\\)');
  });

  it("writes a footnote's leading mark over nothing before its first word", () => {
    const l = line([{ text: '6', size: 7, dy: 4 }, { text: 'Needless to say.' }]);
    expect(lineToMmd(l, [], delims)).toBe('\\({}^{6}\\) Needless to say.');
  });

  it('keeps a word with a subscript, a unit letter or an operator name with its script as maths', () => {
    const l = line([{ text: 'gas CO' }, { text: '2', size: 7, dy: -2 }, { text: ' at ' }, { text: 'max' }, { text: 'n', size: 7, dy: 4 }]);
    expect(lineToMmd(l, [], delims)).toBe('gas \\(CO_{2}\\) at \\(max^{n}\\)');
  });

  it('recognises a line of maths only, and renders it whole', () => {
    const l = line([{ text: '∑', font: 'Symbol' }, { text: ' a ' }, { text: '≤ γ', font: 'Symbol' }]);
    expect(isMathOnly(l)).toBe(true);
    expect(lineToLatex(l)).toBe('\\sum a \\leq \\gamma');
    expect(isMathOnly(line([{ text: 'plain words only' }]))).toBe(false);
  });
});
