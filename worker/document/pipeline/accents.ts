import type { Glyph } from '../../../page/glyph-lines.js';

/**
 * TeX's accents in a text font without accented letters (OT1, the default encoding): `\'e` is the
 * accent glyph drawn over an `e`, and pdf.js gives the two as separate characters (`th´eor`eme`).
 * An accent glyph whose box covers a neighbouring letter's becomes that letter's combining mark,
 * composed where Unicode has the letter (`théorème`, `Erdős`, `Poincaré`).
 */

/** Spacing accents (and the ASCII forms OT1 names `\`` and `\^` by) → their combining marks. */
const COMBINING: Record<string, string> = {
  '`': '\u0300',
  '\u02CB': '\u0300',
  '\u00B4': '\u0301',
  '\u02CA': '\u0301',
  '\u02C6': '\u0302',
  '^': '\u0302',
  '\u02DC': '\u0303',
  '~': '\u0303',
  '\u00AF': '\u0304',
  '\u02C9': '\u0304',
  '\u02D8': '\u0306',
  '\u02D9': '\u0307',
  '\u00A8': '\u0308',
  '\u02DA': '\u030A',
  '\u02DD': '\u030B',
  '\u02C7': '\u030C',
  '\u00B8': '\u0327',
  '\u02DB': '\u0328',
};

/** An accent covers a letter when their boxes overlap by this share of the narrower. */
const MIN_OVERLAP = 0.5;

/** TeX accents the dotless i and j: `\'\i` is í. */
const DOTLESS: Record<string, string> = { '\u0131': 'i', '\u0237': 'j' };

const isTextLetter = (g: Glyph | undefined): g is Glyph => g !== undefined && !g.mathFont && /^\p{L}\p{M}*$/u.test(g.ch);

function overlap(a: Glyph, b: Glyph): number {
  const shared = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  return shared / Math.max(1e-6, Math.min(a.w, b.w));
}

/** One baseline's glyphs in x order, each accent that covers a text letter composed into it. */
export function composeAccents(row: Glyph[]): Glyph[] {
  const out = [...row];
  for (let i = 0; i < out.length; i++) {
    const accent = out[i]!;
    const mark = accent.mathFont ? undefined : COMBINING[accent.ch];
    if (!mark) continue;
    const [before, after] = [out[i - 1], out[i + 1]];
    const candidates = [before, after].filter(isTextLetter).filter((g) => overlap(accent, g) >= MIN_OVERLAP);
    const letter = candidates.sort((a, b) => overlap(accent, b) - overlap(accent, a))[0];
    if (!letter) continue;
    const base = DOTLESS[letter.ch] ?? letter.ch;
    out[out.indexOf(letter)] = { ...letter, ch: (base + mark).normalize('NFC') };
    out.splice(i, 1);
    i--;
  }
  return out;
}
