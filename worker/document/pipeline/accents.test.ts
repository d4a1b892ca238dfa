import { describe, expect, it } from 'vitest';
import { glyphsToLines, itemsToGlyphs, type RawTextItem } from './text-layer.js';

const IDENTITY = [1, 0, 0, 1, 0, 0];
const roman = () => ({ name: 'CMR10', bold: false, math: false });

/** Items placed as pdf.js reports an OT1 page (CMR10 at 10.91 pt): each accent ends an item and overlaps the next item's first letter. */
function text(items: Array<[string, number, number]>, font = roman): string {
  const raw: RawTextItem[] = items.map(([str, x, width]) => ({ str, transform: [10.91, 0, 0, 10.91, x, 500], width, fontName: 'f3' }));
  return glyphsToLines(itemsToGlyphs(raw, IDENTITY, font))
    .map((l) => l.text)
    .join('\n');
}

describe('TeX accents drawn over letters', () => {
  it('compose with the letter they cover, whichever side pdf.js put them on', () => {
    expect(
      text([
        ['th´', 156.61, 15.45],
        ['eor`', 166.91, 19.72],
        ['eme des r´', 181.49, 50.7],
        ['esidus.', 227.03, 31.64],
      ]),
    ).toBe('théorème des résidus.');
    expect(
      text([
        ['On int`', 360.0, 31.27],
        ['egre', 386.12, 19.42],
      ]),
    ).toBe('On intègre');
  });

  it('stay accents where they cover no letter (a backtick or caret in running text)', () => {
    expect(text([['a ` b ^ c', 100, 44]])).toBe('a ` b ^ c');
  });

  it('leave maths fonts alone', () => {
    const math = () => ({ name: 'CMMI10', bold: false, math: true });
    expect(
      text(
        [
          ['x´', 100, 11],
          ['e', 105.5, 5.5],
        ],
        math,
      ),
    ).toBe('x´e');
  });
});
