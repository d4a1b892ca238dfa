import { isRawCode } from './tex-fonts.js';
/**
 * TeX's maths symbol encoding (OMS: CMSY, LMMathSymbols, and the symbol fonts that keep its layout:
 * txsys, MathDesign's Symbol, kpfonts' M-Sy) by character code, for glyphs pdf.js can only hand back
 * as their raw code: a CMSY whose ToUnicode map gives its radical as 'p' (code 0x70), a MathDesign
 * symbol font with no glyph names at all (its \cdot comes back as U+0001, its arrow as '!').
 */

/** Codes 0x00–0x7F; U+0338 is the \not slash, U+0000 marks the calligraphic capitals (kept as the letters). */
const OMS =
  '\u2212\u22C5\u00D7\u2217\u00F7\u22C4\u00B1\u2213\u2295\u2296\u2297\u2298\u2299\u25EF\u25E6\u2022' +
  '\u224D\u2261\u2286\u2287\u2264\u2265\u2AAF\u2AB0\u223C\u2248\u2282\u2283\u226A\u226B\u227A\u227B' +
  '\u2190\u2192\u2191\u2193\u2194\u2197\u2198\u2243\u21D0\u21D2\u21D1\u21D3\u21D4\u2196\u2199\u221D' +
  '\u2032\u221E\u2208\u220B\u25B3\u25BD\u0338\u21A6\u2200\u2203\u00AC\u2205\u211C\u2111\u22A4\u22A5' +
  '\u2135' +
  '\u0000'.repeat(26) +
  '\u222A\u2229\u228E\u2227\u2228' +
  '\u22A2\u22A3\u230A\u230B\u2308\u2309{}\u27E8\u27E9|\u2016\u2195\u21D5\\\u2240' +
  '\u221A\u2A3F\u2207\u222B\u2294\u2293\u2291\u2292\u00A7\u2020\u2021\u00B6\u2663\u2662\u2661\u2660';

/**
 * The Unicode of a maths symbol glyph: pdf.js's own when it named the glyph, else the OMS character
 * at `code`. pdf.js named it unless it returned nothing, a control character, or exactly the
 * character whose code it is where OMS has something else there (every code but the capitals).
 */
export function mathSymbolUnicode(unicode: string, code: number): string {
  const raw = isRawCode(unicode, code);
  const oms = OMS[code];
  return raw && oms !== undefined && oms !== '\u0000' ? oms : unicode;
}
