import { glyphToLatex, isCjkChar } from '../unicode-latex.js';
import type { SymbolStyle } from '../types.js';

/**
 * What a PDF font says about its glyphs: which TeX font family it is (Computer Modern, Latin
 * Modern, cm-super, AMS, or a Unicode maths font) and so which LaTeX token and style each glyph is.
 */

export type FontFamily =
  /** Maths italic letters and Greek (CMMI, LMMathItalic). */
  | 'math-italic'
  /** Upright text and maths roman (CMR, LMRoman, SFRM). */
  | 'roman'
  /** Maths symbols; its capitals are calligraphic (CMSY, LMMathSymbols). */
  | 'symbols'
  /** Big operators and delimiter pieces (CMEX, LMMathExtension). */
  | 'extension'
  | 'bold'
  | 'blackboard'
  /** AMS symbols A (MSAM): arrows and relations. */
  | 'ams-symbols'
  | 'fraktur'
  /** Calligraphic capitals (Euler Script, Boondox, dutchcal): `\mathcal`. */
  | 'calligraphic'
  /** Ralph Smith's formal script (RSFS): `\mathscr`. */
  | 'script'
  /** An OpenType maths font (Latin Modern Math, STIX Two Math, Cambria Math). */
  | 'unicode-math'
  | 'other';

const FAMILIES: Array<[RegExp, FontFamily]> = [
  [/CMEX|LMMathExtension|LMEX|EUEX/i, 'extension'],
  // newtx/newpx (and txfonts/pxfonts): the extension font keeps CMEX's layout, the symbols CMSY's.
  [/^[tp]xb?exs?$/i, 'extension'],
  [/^[tp]xb?sys$/i, 'symbols'],
  [/^New[TP]XB?MI|^zsfmi/i, 'math-italic'],
  // MathDesign (Utopia, Charter, Garamond) and kpfonts keep TeX's OML, OMS and OMX layouts under their own names.
  [/^MathDesign-.*-Extension|^Kp-+M-Ex/i, 'extension'],
  [/^MathDesign-.*-Symbol-|^Kp-+M-Sy/i, 'symbols'],
  [/^MathDesign-.*-MathItalic|^Kp-+M-Italic/i, 'math-italic'],
  [/CMBSY|LMMathSymbols.*Bold/i, 'symbols'],
  [/CMSY|LMMathSymbols|LMSY/i, 'symbols'],
  [/CMMIB|LMMathItalic.*Bold/i, 'math-italic'],
  [/CMMI|LMMathItalic|LMMI/i, 'math-italic'],
  [/MSBM/i, 'blackboard'],
  [/MSAM/i, 'ams-symbols'],
  [/EUFM|EUFB/i, 'fraktur'],
  // Calligraphic alphabets: Euler Script, the Boondox calligraphic of newtx and others, dutchcal; RSFS is mathrsfs's \mathscr.
  [/EUSM|EUSB|Boondox.*Cal|dutchcal|Calligraphic/i, 'calligraphic'],
  [/RSFS/i, 'script'],
  [/CMBX|LMRoman\d*-Bold|SFBX|LMRomanDemi/i, 'bold'],
  [/LatinModernMath|STIX.*Math|Cambria.?Math|XITS.?Math|TeXGyre.*Math|DejaVuMathTeX|Asana|LibertinusMath|MathJax/i, 'unicode-math'],
  [/CMR|CMTI|CMSL|CMSS|CMTT|LMRoman|LMSans|LMMono|SFRM|SFTI|SFSS|SFTT/i, 'roman'],
];

/** The bold maths fonts `\boldsymbol` and `\bm` draw from: bold maths italic and bold symbols (CMMIB, CMBSY, Latin Modern's bold maths, newtx's and newpx's bold). */
const BOLD_MATH_FONT = /CMMIB|CMBSY|LMMathItalic.*Bold|LMMathSymbols.*Bold|^New[TP]XBMI|^[tp]xbsys$/i;

/** True for a bold maths font (`\boldsymbol{\alpha}` is CMMIB's alpha). */
export const isBoldMathFont = (name: string) => BOLD_MATH_FONT.test(bareFontName(name));

/** A font name without its subset tag (`ABCDEF+CMR10` → `CMR10`), which usually differs from one document to the next. */
export function bareFontName(name: string): string {
  return name.replace(/^[A-Z]{6}\+/, '');
}

/** Strips a subset tag (ABCDEF+) and classifies the font by name. */
export function classifyFont(name: string): FontFamily {
  const bare = bareFontName(name);
  for (const [re, family] of FAMILIES) if (re.test(bare)) return family;
  return 'other';
}

/** The italic shape of a text font, by name: CMTI, SFTI, LMRoman10-Italic, NimbusRomNo9L-ReguItal, MinionPro-It. */
const TEXT_ITALIC = /CMTI|SFTI|Ital|Oblique|-(Bold)?It$/i;

/**
 * True for a text font's italic: the font some documents set their maths letters in (a TeX
 * document that gives the letters the text italic's mathcodes, a word processor's italic x).
 * `flagged`: the font's descriptor says italic.
 */
export function isTextItalicFont(name: string, flagged = false): boolean {
  return !isMathFamily(classifyFont(name)) && (flagged || TEXT_ITALIC.test(bareFontName(name)));
}

/** Fonts whose every glyph is maths; text fonts (roman, other) carry maths only in context. */
export function isMathFamily(family: FontFamily): boolean {
  return family !== 'roman' && family !== 'other' && family !== 'bold';
}

export interface GlyphToken {
  latex: string;
  style?: SymbolStyle;
}

/** TeX glyphs whose Unicode (from their PostScript names) needs a different LaTeX token than the shared table gives. */
const TEX_OVERRIDES: Record<string, string> = {
  '\u2212': '-',
  '\u2032': '\\prime',
  '\u221A': '\\sqrt',
  '\u2223': '|',
  '\u2225': '\\|',
  '\u2016': '\\|',
  '\u0338': '\\not',
  '\u22C5': '\\cdot',
  '\u2026': '\\ldots',
  '\u03F5': '\\epsilon',
  '\u03B5': '\\varepsilon',
  '\u00B0': '\\circ',
  // CMSY's openbullet and bullet are \circ and \bullet; its backslash glyph is mostly \setminus.
  '\u25E6': '\\circ',
  '\u2022': '\\bullet',
  '\\': '\\setminus',
  // Type 1 names Delta, Omega and mu map to the increment, ohm and micro signs.
  '\u2206': '\\Delta',
  '\u2126': '\\Omega',
  '\u00B5': '\\mu',
  '\u00AF': '\\bar',
  '\u02C9': '\\bar',
  '\u02C6': '\\hat',
  '\u005E': '\\hat',
  '\u02DC': '\\tilde',
  '\u007E': '\\tilde',
  '\u02D9': '\\dot',
  '\u00A8': '\\ddot',
  '\u02C7': '\\check',
  '\u02D8': '\\breve',
  '\u02DA': '\\mathring',
  '\u00B4': '\\acute',
  '\u0060': '\\grave',
  '\u20D7': '\\vec',
  // unicode-math fonts (and some Type 1 maths fonts) name their accents by the combining marks.
  '\u0300': '\\grave',
  '\u0301': '\\acute',
  '\u0302': '\\hat',
  '\u0303': '\\tilde',
  '\u0304': '\\bar',
  '\u0305': '\\bar',
  '\u0306': '\\breve',
  '\u030A': '\\mathring',
  '\u0307': '\\dot',
  '\u0308': '\\ddot',
  '\u030C': '\\check',
  '\u2192': '\\rightarrow',
  '{': '\\{',
  '}': '\\}',
  '\u27E8': '\\langle',
  '\u27E9': '\\rangle',
  '\u2329': '\\langle',
  '\u232A': '\\rangle',
};

/** CMEX and Unicode big-operator glyphs → the operator's token. */
const BIG_OPERATORS: Record<string, string> = {
  '\u2211': '\\sum',
  '\u220F': '\\prod',
  '\u2210': '\\coprod',
  '\u222B': '\\int',
  '\u222C': '\\iint',
  '\u222D': '\\iiint',
  '\u222E': '\\oint',
  '\u22C3': '\\bigcup',
  '\u22C2': '\\bigcap',
  '\u2A01': '\\bigoplus',
  '\u2A02': '\\bigotimes',
  '\u2A00': '\\bigodot',
  '\u22C1': '\\bigvee',
  '\u22C0': '\\bigwedge',
  '\u2A04': '\\biguplus',
};

const GREEK_WORD =
  /^\\(var)?(alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|lambda|mu|nu|xi|pi|rho|sigma|tau|upsilon|phi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|Pi|Sigma|Upsilon|Phi|Psi|Omega)$/;

/** Style of a letter drawn in this family, when the family says it; symbols and digits have none. */
function letterStyle(family: FontFamily, token: string): SymbolStyle | undefined {
  const latin = /^[A-Za-z]$/.test(token);
  if (!latin && !GREEK_WORD.test(token)) return undefined;
  switch (family) {
    case 'math-italic':
      return 'italic';
    case 'roman':
      return 'upright';
    case 'bold':
      return 'bold';
    case 'blackboard':
      return latin ? 'blackboard' : undefined;
    case 'symbols':
      return /^[A-Z]$/.test(token) ? 'calligraphic' : undefined;
    case 'fraktur':
      return latin ? 'fraktur' : undefined;
    case 'calligraphic':
      return latin ? 'calligraphic' : undefined;
    case 'script':
      return latin ? 'script' : undefined;
    default:
      return undefined;
  }
}

/** Unicode maths alphanumerics carry their style in the code point: bold, italic, script, fraktur, double-struck. */
function alphanumericStyle(cp: number): SymbolStyle | undefined {
  if (cp === 0x210e) return 'italic';
  if (cp < 0x1d400 || cp > 0x1d7ff) return undefined;
  if (cp >= 0x1d7ce) return cp < 0x1d7d8 ? 'bold' : cp < 0x1d7e2 ? 'blackboard' : 'upright';
  // Greek in blocks of 58: bold, italic, bold italic, sans bold, sans bold italic.
  if (cp >= 0x1d6a8) return (['bold', 'italic', 'bold', 'bold', 'bold'] as const)[Math.floor((cp - 0x1d6a8) / 58)] ?? 'upright';
  const block = Math.floor((cp - 0x1d400) / 52);
  // Blocks of 52 letters: bold, italic, bold italic, script, bold script, fraktur, double-struck, bold fraktur, sans…
  return (['bold', 'italic', 'bold', 'calligraphic', 'calligraphic', 'fraktur', 'blackboard', 'fraktur'] as const)[block] ?? 'upright';
}

/**
 * Whether pdf.js could only hand back the glyph's character code (nothing, a control character, or
 * the code read as ASCII): the glyph's name meant nothing to it, so the font's encoding must say.
 */
export function isRawCode(unicode: string, code: number): boolean {
  return unicode === '' || /^\p{Cc}$/u.test(unicode) || unicode === String.fromCharCode(code);
}

/**
 * Glyphs of the AMS fonts pdf.js can only name by their character code, which it hands back as
 * ASCII: MSBM's wide hats and tildes (codes 0x5B–0x60), which amssymb uses for `\widehat` and
 * `\widetilde` over two or more letters.
 */
export function tokenByCode(family: FontFamily, code: number): string | undefined {
  if (family !== 'blackboard' || code < 0x5b || code > 0x60) return undefined;
  return code < 0x5e ? '\\widehat' : '\\widetilde';
}

const VARIATION_SELECTORS = /[\uFE00-\uFE0F]/gu;

/** One glyph's LaTeX token and style. Returns undefined for glyphs with no maths meaning (spaces). */
export function glyphToken(unicode: string, family: FontFamily): GlyphToken | undefined {
  // A variation selector names a larger size of the same symbol (newtx's `(︁`, `∑︁`): the glyph's box says how large.
  const ch = unicode.replace(VARIATION_SELECTORS, '').normalize('NFC');
  if (ch.trim() === '') return undefined;
  const cp = ch.codePointAt(0) ?? 0;
  const big = BIG_OPERATORS[ch];
  if (big) return { latex: big };
  // pdf.js names TeX's phi glyphs by shape, as unicode-math does: the straight \phi is U+03D5,
  // the curly \varphi U+03C6 (the reverse of the Adobe glyph list's phi/phi1).
  if (ch === '\u03C6' || ch === '\u03D5') return { latex: ch === '\u03D5' ? '\\phi' : '\\varphi', style: letterStyle(family, '\\phi') };
  // The maths italic font's position 0x7E is its vector accent, which pdf.js names by the ASCII tilde.
  if (ch === '~' && family === 'math-italic') return { latex: '\\vec' };
  // A CJK character in a display is a word of the text (`\text{且}`): maths has no such symbol.
  if (isCjkChar(ch)) return { latex: `\\text{${ch}}` };
  const override = TEX_OVERRIDES[ch];
  if (override) return { latex: override, style: letterStyle(family, override) };
  const mapped = glyphToLatex(ch);
  if (mapped.startsWith('\\mathbb{')) return { latex: mapped.slice(8, -1), style: 'blackboard' };
  const style = alphanumericStyle(cp) ?? letterStyle(family, mapped);
  return { latex: mapped, style };
}
