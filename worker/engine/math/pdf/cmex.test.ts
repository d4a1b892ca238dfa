import { describe, expect, it } from 'vitest';
import { cmexGlyph } from './cmex.js';

describe('the extension font by character code', () => {
  it('names CMEX sizes and pieces, and the larger sizes yhmath adds above 127', () => {
    expect(cmexGlyph(0x00, 'CMEX10')).toEqual({ latex: '(', part: 'whole' });
    expect(cmexGlyph(0x58, 'CMEX10')).toEqual({ latex: '\\sum', part: 'whole' });
    expect(cmexGlyph(0x3a, 'LMMathExtension10-Regular')).toEqual({ latex: '\\{', part: 'bottom' });
    // yhcmex: 129 follows CMEX's Big '(' (0x10), 139 its ')' (0x11), 173 the langle (0x44), 200 the radical.
    expect([129, 139, 173, 183, 200].map((code) => cmexGlyph(code, 'ABCDEF+Yhcmex')?.latex)).toEqual(['(', ')', '\\langle', '\\rangle', '\\sqrt']);
    expect(cmexGlyph(240, 'Yhcmex')).toBeUndefined();
  });

  it("leaves the codes above 127 of other CMEX-like fonts (newtx's txexs) to their Unicode", () => {
    expect(cmexGlyph(0x00, 'txexs')).toEqual({ latex: '(', part: 'whole' });
    expect(cmexGlyph(213, 'AWCBGV+txexs')).toBeUndefined();
  });
});
