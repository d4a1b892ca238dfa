import { isRawCode } from './tex-fonts.js';
/**
 * TeX's maths italic encoding (OML: CMMI, LMMathItalic) by character code, for glyphs pdf.js can
 * only hand back as their raw code. A PDF whose maths italic font has a partial ToUnicode map and
 * a built-in encoding (xdvipdfmx writes such fonts) leaves pdf.js with the code itself: the comma
 * (0x3B) comes back as ';', the period (0x3A) as ':', and σ (0x1B) as a control character.
 */

const GREEK = 'ΓΔΘΛΞΠΣΥΦΨΩαβγδ\u03F5ζηθικλμνξπρστυ\u03D5χψω\u03B5\u03D1\u03D6\u03F1\u03C2\u03C6';
const OTHERS: Record<number, string> = {
  0x28: '\u21BC',
  0x29: '\u21BD',
  0x2a: '\u21C0',
  0x2b: '\u21C1',
  0x3a: '.',
  0x3b: ',',
  0x3d: '/',
  0x3f: '\u22C6',
  0x40: '\u2202',
  0x5b: '\u266D',
  0x5c: '\u266E',
  0x5d: '\u266F',
  0x5e: '\u2323',
  0x5f: '\u2322',
  0x60: '\u2113',
  0x7b: '\u0131',
  0x7c: '\u0237',
  0x7d: '\u2118',
};

/**
 * The Unicode of a maths italic glyph: pdf.js's own when it named the glyph, else the OML
 * character at `code`. pdf.js named it unless it returned nothing, a control character, or
 * exactly the character whose code it is where OML has something else there.
 */
export function mathItalicUnicode(unicode: string, code: number): string {
  const raw = isRawCode(unicode, code);
  if (!raw) return unicode;
  if (code < GREEK.length) return GREEK[code]!;
  return OTHERS[code] ?? unicode;
}
