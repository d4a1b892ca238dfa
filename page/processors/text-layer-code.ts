import type { Glyph, TextLine } from '../glyph-lines.js';

/**
 * Code on a born-digital page (4.2 output rule 2): lines set in a typewriter font, as a manual
 * prints its verbatim listings and LaTeX examples. The text layer names each glyph's font, so
 * the evidence is the font itself (images measure a fixed pitch on word boxes instead:
 * code-lines.ts). Such lines are written as the code they print, never read as maths or prose.
 */

/**
 * Typewriter faces by name, after a subset tag (`ABCDEF+`): Computer and Latin Modern
 * typewriter (CMTT, CMSLTT, CMITT, LMMono…), cm-super and EC (SFTT, ECTT, TCTT), newtx/txfonts
 * (txtt, NewTXTT), inconsolata (zi4), and the system monospaced families.
 */
const TYPEWRITER_FONT =
  /(^|\+)(CMS?L?I?TT|LMMono|SFTT|ECTT|TCTT|t1xtt|txtt|NewTXTT|zi4|Inconsolata|NimbusMono|Courier|DejaVuSansMono|LiberationMono|SourceCodePro|FiraMono|Menlo|Consolas)|Mono(?!type)/i;

/** A code line has at least this share of its visible glyphs in a typewriter face (a `\verb` in prose has far fewer). */
const TYPEWRITER_SHARE = 0.6;
/** A line with some typewriter glyphs (a syntax line with meta-variables in roman) goes on a listing this close below it, in line sizes. */
const MIXED_GAP = 1.5;
/** Lines of one listing: baselines at most this many of the line's sizes apart (blank lines of the listing included). */
const LISTING_GAP = 3.2;

export function isTypewriterFont(name: string): boolean {
  return TYPEWRITER_FONT.test(name);
}

const visible = (line: TextLine): Glyph[] => line.glyphs.filter((g) => g.ch.trim() !== '');

/**
 * Operators and relations that verbatim never prints: a listing sets `-`, `*` and `<=` in its own
 * typewriter face, so one of these in another face means the line was typeset as maths
 * (`\texttt{width} = \texttt{total} - 2\,\textrm{in}`), whatever share of it is typewriter.
 */
const MATHS_OPERATOR =
  /[\u2212\u00d7\u00f7\u00b1\u2213\u00b7\u22c5\u2264\u2265\u2260\u2248\u2261\u2192\u2190\u21d2\u2208\u2282\u2286\u222a\u2229\u2211\u220f\u222b\u221a]/u;

/** The line is printed code: nearly all its glyphs in a typewriter face, more than a lone mark, and no maths operator set in a maths face. */
export function isCodeLine(line: TextLine): boolean {
  const ink = visible(line);
  if (ink.length < 2) return false;
  if (ink.some((g) => MATHS_OPERATOR.test(g.ch) && !isTypewriterFont(g.font))) return false;
  return ink.filter((g) => isTypewriterFont(g.font)).length >= TYPEWRITER_SHARE * ink.length;
}

/** `line` is a piece of the listing's last line `prev`, cut off to its right on the same baseline (a wide run of spaces). */
export function sameRow(prev: TextLine, line: TextLine): boolean {
  return Math.abs(line.base - prev.base) < 0.3 * prev.size && line.x0 >= prev.x1;
}

/** The two pieces of one printed row as one line. */
export function joinRow(prev: TextLine, line: TextLine): TextLine {
  return {
    ...prev,
    glyphs: [...prev.glyphs, ...line.glyphs],
    x1: line.x1,
    top: Math.min(prev.top, line.top),
    bottom: Math.max(prev.bottom, line.bottom),
    text: `${prev.text} ${line.text}`,
  };
}

/**
 * `line` goes on the listing whose last line is `prev`: a code line close below it (blank lines of
 * the listing between), or a line with typewriter glyphs at the listing's leading.
 */
export function continuesListing(prev: TextLine, line: TextLine): boolean {
  const step = line.base - prev.base;
  const size = Math.max(prev.size, line.size);
  if (step <= 0) return false;
  if (isCodeLine(line)) return step <= LISTING_GAP * size;
  return step <= MIXED_GAP * size && visible(line).some((g) => isTypewriterFont(g.font));
}

/** The typewriter's advance: the median width of the block's typewriter glyphs. */
export function typewriterPitch(lines: TextLine[]): number {
  const widths = lines
    .flatMap(visible)
    .filter((g) => isTypewriterFont(g.font) && g.w > 0)
    .map((g) => g.w)
    .sort((a, b) => a - b);
  return widths[Math.floor(widths.length / 2)] ?? 0;
}

/**
 * The listing's lines as printed: each glyph at its column (its distance from the listing's left
 * edge in pitches), so indentation and runs of spaces survive; a blank line of the listing, which
 * the text layer has no line for, comes back from the gap between baselines.
 */
export function listingText(lines: TextLine[]): string[] {
  const pitch = typewriterPitch(lines);
  if (!(pitch > 0)) return lines.map((l) => typed(l.text));
  const left = Math.min(...lines.map((l) => l.x0));
  const steps = lines.slice(1).map((l, i) => l.base - lines[i]!.base);
  const leading = [...steps].sort((a, b) => a - b)[0] ?? 0;
  return lines.map((line, i) => {
    let text = '';
    let end = -Infinity;
    for (const g of visible(line)) {
      // A roman meta-variable (`〈left side〉`) is narrower than the pitch: its spaces come from the gaps.
      const spaced = g.x - end > 0.3 * pitch ? 1 : 0;
      const col = Math.max(text.length + (text ? spaced : 0), Math.round((g.x - left) / pitch));
      text = text.padEnd(col) + typed(g.ch);
      end = g.x + g.w;
    }
    const blank = i > 0 && leading > 0 ? Math.max(0, Math.round(steps[i - 1]! / leading) - 1) : 0;
    return '\n'.repeat(Math.min(blank, 2)) + text;
  });
}

/**
 * Typewriter fonts print the ' and ` an author typed as curly quotes (cmtt's quoteright and
 * quoteleft, which the text layer maps to U+2019 and U+2018): code gets back what was typed.
 */
const typed = (text: string): string => text.replace(/\u2019/gu, "'").replace(/\u2018/gu, '`');
