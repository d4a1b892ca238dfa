/**
 * pdf.js text items → glyphs → lines. Pure geometry: no pdf.js import, so it is unit-testable.
 * Coordinates are PDF points in the page's viewport with the origin top-left.
 */

import type { Glyph, TextLine } from '../../../page/glyph-lines.js';
import { composeAccents } from './accents.js';
import { clusterByBaseline, isHanging } from './baseline-clusters.js';
import { dominantSize } from '../../../page/processors/line-measures.js';
import { gutterStrip } from './gutter-strip.js';
import { multiplyMatrix } from '../../engine/math/pdf/matrix.js';
import { BULLETS } from '../../engine/math/unicode-latex.js';

export { dominantSize };
export type { Glyph, TextLine };

/** The fields of a pdf.js TextItem this module reads. */
export interface RawTextItem {
  str: string;
  transform: number[];
  width: number;
  fontName: string;
}

export interface FontInfo {
  name: string;
  bold: boolean;
  math: boolean;
  /** A text font's italic (isTextItalicFont): where some documents set their maths letters. */
  italic?: boolean;
}

/** A word gap wider than this many ems splits a baseline into separate lines (columns, table cells). */
const FRAGMENT_GAP_EM = 1.2;
/** A gap over the gutter this many ems wide splits a row; a word space there is a centred title's. */
const GUTTER_GAP_EM = 0.6;
/** A gap wider than this many ems between glyphs that carry no space becomes a space. */
const SPACE_GAP_EM = 0.2;
/** A list's bullet or number keeps the text this many ems after it (a word processor tabs to the item's indent). */
const MARKER_GAP_EM = 2.5;
/** A glyph with no readable character: a symbol font's bullet without a Unicode map (pdfTeX's Type 3 bullet, Wingdings). */
const UNREADABLE = /^[\u0000-\u001f\u007f-\u009f\ufffd\p{Co}]$/u;

/** A list item's bullet: a bullet character, or a lone unreadable glyph where one stands. */
export function isBullet(ch: string): boolean {
  return BULLETS.has(ch) || UNREADABLE.test(ch);
}

/** A row's first fragment that is a list marker set apart from its text: a bullet (not a dash or star, which stand alone in tables) or a number. */
function isMarkerFragment(frag: Glyph[]): boolean {
  const text = frag
    .filter((g) => !isSpace(g))
    .map((g) => g.ch)
    .join('');
  return (isBullet(text) && !/^[-*\u2013]$/.test(text)) || /^\d{1,3}[.)]$/.test(text);
}

/** A maths font's accent that pdf.js gives as a zero-width combining mark (cmmi's `\vec`, U+20D7). */
const MATH_ACCENT = /^[\u0300-\u036f\u20d0-\u20ff]$/u;
/** That accent's advance in ems (cmmi's `\vec` is half an em wide). */
const MATH_ACCENT_EM = 0.5;

/** Where a maths accent was drawn: the glyphs after it on its baseline are the letters under it. */
interface PendingAccent {
  x: number;
  base: number;
  size: number;
}

/**
 * How far right the letter after such an accent really stands. pdf.js counts the accent's advance
 * as zero but still applies TeX's kern back over it, so the accented letter (and what follows it in
 * the same run) comes out about the accent's width left of its ink: `\vec{v}` then overlaps the
 * word before it, and a display's last `\vec{w}` falls outside the display. TeX centres the accent
 * over the letter, so the letter starts where its middle lies under the accent's middle.
 */
function underAccentShift(accent: PendingAccent, x: number, width: number, base: number): number {
  if (Math.abs(accent.base - base) > 0.5 * accent.size) return 0;
  const shift = accent.x + (MATH_ACCENT_EM * accent.size) / 2 - width / 2 - x;
  return shift > 0 && shift < accent.size ? shift : 0;
}

/**
 * Splits items into glyphs spread evenly over each item's width (pdf.js gives no per-glyph advance),
 * a maths accent's zero-width mark taking none of it and moving the letters after it under it.
 * Text that is not horizontal in the viewport (margin stamps, rotated labels) is left out.
 */
export function itemsToGlyphs(items: RawTextItem[], viewportTransform: number[], font: (name: string) => FontInfo): Glyph[] {
  const glyphs: Glyph[] = [];
  let accent: PendingAccent | undefined;
  for (const item of items) {
    const chars = Array.from(item.str);
    if (chars.length === 0) continue;
    const m = multiplyMatrix(viewportTransform, item.transform);
    if (Math.abs(m[1]) > 1e-3 * Math.abs(m[0]) || m[0] <= 0) continue;
    const size = Math.hypot(m[2], m[3]);
    if (size <= 0) continue;
    const info = font(item.fontName);
    const isMark = (ch: string) => info.math && MATH_ACCENT.test(ch);
    const step = item.width / Math.max(1, chars.filter((ch) => !isMark(ch)).length);
    let x = m[4];
    for (const ch of chars) {
      const mark = isMark(ch);
      if (mark) accent = { x, base: m[5], size };
      else if (accent) {
        if (!/\s/.test(ch)) x += underAccentShift(accent, x, step, m[5]);
        accent = undefined;
      }
      const w = mark ? 0 : step;
      glyphs.push({ ch, x, w, base: m[5], size, font: info.name, bold: info.bold, mathFont: info.math, ...(info.italic ? { italic: true } : {}) });
      x += w;
    }
  }
  return glyphs;
}

const isSpace = (g: Glyph) => /\s/.test(g.ch);

/**
 * Groups glyphs into lines: by baseline, with scripts, inline fractions and big operators joining
 * the line they belong to (baseline-clusters.ts), then cut at wide horizontal gaps and at a
 * two-column page's gutter.
 */
export function glyphsToLines(glyphs: Glyph[]): TextLine[] {
  const lines: TextLine[] = [];
  const rows = clusterByBaseline(glyphs.filter((g) => !isSpace(g) || g.w > 0)).map((c) => composeAccents(c.glyphs.sort((a, b) => a.x - b.x)));
  const gutter = gutterStrip(rows);
  for (const row of rows) {
    for (const fragment of splitFragments(row, gutter)) {
      const line = makeLine(fragment);
      if (line) lines.push(line);
    }
  }
  return lines.sort((a, b) => a.top - b.top || a.x0 - b.x0);
}

/** Cuts a row at gaps wider than FRAGMENT_GAP_EM, and at a narrower one over the page's gutter. */
function splitFragments(row: Glyph[], gutter: number | undefined): Glyph[][] {
  const out: Glyph[][] = [];
  let frag: Glyph[] = [];
  let lastEnd = -Infinity;
  for (const g of row) {
    if (isSpace(g)) {
      frag.push(g);
      continue;
    }
    const marker = out.length === 0 && g.x - lastEnd <= MARKER_GAP_EM * g.size && isMarkerFragment(frag);
    if (
      frag.length &&
      !marker &&
      (g.x - lastEnd > FRAGMENT_GAP_EM * g.size || (gutter !== undefined && lastEnd <= gutter && g.x >= gutter && g.x - lastEnd > GUTTER_GAP_EM * g.size))
    ) {
      out.push(frag);
      frag = [];
    }
    frag.push(g);
    lastEnd = g.x + g.w;
  }
  if (frag.length) out.push(frag);
  return out;
}

/** Normalises spacing (one space per gap, none at the ends) and measures the line. */
export function makeLine(fragment: Glyph[]): TextLine | undefined {
  const glyphs: Glyph[] = [];
  let prev: Glyph | undefined;
  for (const g of fragment) {
    if (isSpace(g)) {
      if (glyphs.length && !isSpace(glyphs[glyphs.length - 1])) glyphs.push({ ...g, ch: ' ' });
      continue;
    }
    if (prev && glyphs.length && !isSpace(glyphs[glyphs.length - 1])) {
      const gap = g.x - (prev.x + prev.w);
      if (gap > SPACE_GAP_EM * Math.min(g.size, prev.size)) glyphs.push({ ...prev, ch: ' ', x: prev.x + prev.w, w: gap });
    }
    glyphs.push(g);
    prev = g;
  }
  while (glyphs.length && isSpace(glyphs[glyphs.length - 1])) glyphs.pop();
  const ink = glyphs.filter((g) => !isSpace(g));
  if (ink.length === 0) return undefined;
  const size = dominantSize(ink);
  const main = ink.filter((g) => Math.abs(g.size - size) < 0.5 && !isHanging(g));
  const base = (main.length ? main : ink)[Math.floor((main.length || ink.length) / 2)].base;
  return {
    glyphs,
    x0: ink[0].x,
    x1: Math.max(...ink.map((g) => g.x + g.w)),
    top: Math.min(...ink.map((g) => (isHanging(g) ? g.base : g.base - 0.8 * g.size))),
    bottom: Math.max(...ink.map((g) => g.base + (isHanging(g) ? 1 : 0.2) * g.size)),
    base,
    size,
    bold: ink.filter((g) => g.bold).length > ink.length / 2,
    text: glyphs.map((g) => g.ch).join(''),
  };
}
