import { describe, expect, it } from 'vitest';
import { glyphToken } from './tex-fonts.js';

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
});
