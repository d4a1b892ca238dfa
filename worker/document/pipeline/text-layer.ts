import { classifyFont } from '../../engine/math/pdf/tex-fonts.js';

/**
 * pdf.js text items → glyphs → lines. Pure geometry: no pdf.js import, so it is unit-testable.
 * Coordinates are PDF points in the page's viewport with the origin top-left.
 */

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
}

export interface Glyph {
  ch: string;
  x: number;
  w: number;
  /** Baseline, measured down from the top of the page. */
  base: number;
  size: number;
  font: string;
  bold: boolean;
  mathFont: boolean;
}

export interface TextLine {
  glyphs: Glyph[];
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  /** Baseline and size of the line's dominant glyphs (superscripts and subscripts excluded). */
  base: number;
  size: number;
  bold: boolean;
  /** Plain text with spaces, for classification. */
  text: string;
}

/** A word gap wider than this many ems splits a baseline into separate lines (columns, table cells). */
const FRAGMENT_GAP_EM = 1.2;
/** A gap wider than this many ems between glyphs that carry no space becomes a space. */
const SPACE_GAP_EM = 0.2;

export function multiply(m1: number[], m2: number[]): number[] {
  return [
    m1[0] * m2[0] + m1[2] * m2[1],
    m1[1] * m2[0] + m1[3] * m2[1],
    m1[0] * m2[2] + m1[2] * m2[3],
    m1[1] * m2[2] + m1[3] * m2[3],
    m1[0] * m2[4] + m1[2] * m2[5] + m1[4],
    m1[1] * m2[4] + m1[3] * m2[5] + m1[5],
  ];
}

/**
 * Splits items into glyphs spread evenly over each item's width (pdf.js gives no per-glyph advance).
 * Text that is not horizontal in the viewport (margin stamps, rotated labels) is left out.
 */
export function itemsToGlyphs(items: RawTextItem[], viewportTransform: number[], font: (name: string) => FontInfo): Glyph[] {
  const glyphs: Glyph[] = [];
  for (const item of items) {
    const chars = Array.from(item.str);
    if (chars.length === 0) continue;
    const m = multiply(viewportTransform, item.transform);
    if (Math.abs(m[1]) > 1e-3 * Math.abs(m[0]) || m[0] <= 0) continue;
    const size = Math.hypot(m[2], m[3]);
    if (size <= 0) continue;
    const info = font(item.fontName);
    const step = item.width / chars.length;
    chars.forEach((ch, i) => {
      glyphs.push({ ch, x: m[4] + i * step, w: step, base: m[5], size, font: info.name, bold: info.bold, mathFont: info.math });
    });
  }
  return glyphs;
}

const isSpace = (g: Glyph) => /\s/.test(g.ch);

/**
 * Groups glyphs into lines: by baseline (tolerating raised and lowered scripts), then by horizontal gaps.
 * Big operators and delimiters from TeX's extension font hang below their baseline, so they do
 * not take part in the baseline grouping: each joins the line its ink sits on afterwards.
 */
export function glyphsToLines(glyphs: Glyph[]): TextLine[] {
  const kept = glyphs.filter((g) => !isSpace(g) || g.w > 0);
  const hanging = kept.filter(isHanging);
  const sorted = kept.filter((g) => !isHanging(g)).sort((a, b) => a.base - b.base || a.x - b.x);
  const clusters: Cluster[] = [];
  let current: Cluster | undefined;
  for (const g of sorted) {
    if (current?.ref && Math.abs(g.base - current.ref.base) > 0.5 * Math.max(current.ref.size, g.size)) current = undefined;
    if (!current) clusters.push((current = { glyphs: [] }));
    current.glyphs.push(g);
    if (!isSpace(g) && (!current.ref || g.size > current.ref.size)) current.ref = g;
  }
  for (const g of hanging) {
    const home = clusterUnder(g, clusters);
    if (home) home.glyphs.push(g);
    else clusters.push({ glyphs: [g], ref: g });
  }
  const lines: TextLine[] = [];
  for (const cluster of clusters) {
    for (const fragment of splitFragments(cluster.glyphs.sort((a, b) => a.x - b.x))) {
      const line = makeLine(fragment);
      if (line) lines.push(line);
    }
  }
  return lines.sort((a, b) => a.top - b.top || a.x0 - b.x0);
}

interface Cluster {
  glyphs: Glyph[];
  /** The largest glyph: its baseline is the cluster's. */
  ref?: Glyph;
}

const extensionFonts = new Map<string, boolean>();
/** A glyph of TeX's extension font (CMEX): its ink hangs from its baseline down. */
function isHanging(g: Glyph): boolean {
  let hanging = extensionFonts.get(g.font);
  if (hanging === undefined) extensionFonts.set(g.font, (hanging = classifyFont(g.font) === 'extension'));
  return hanging;
}

/**
 * The cluster whose maths axis (a quarter em above its baseline) is nearest the middle of a
 * hanging glyph's ink — at least one em deep, a text-size big operator — among clusters with a
 * glyph within two ems sideways; undefined when none is within half an em.
 */
function clusterUnder(g: Glyph, clusters: Cluster[]): Cluster | undefined {
  const middle = g.base + 0.5 * g.size;
  let best: { cluster: Cluster; distance: number } | undefined;
  for (const cluster of clusters) {
    if (!cluster.ref) continue;
    const distance = Math.abs(cluster.ref.base - 0.25 * cluster.ref.size - middle);
    if (distance > 0.5 * g.size || (best && distance >= best.distance)) continue;
    if (cluster.glyphs.some((o) => o.x < g.x + g.w + 2 * g.size && o.x + o.w > g.x - 2 * g.size)) best = { cluster, distance };
  }
  return best?.cluster;
}

function splitFragments(row: Glyph[]): Glyph[][] {
  const out: Glyph[][] = [];
  let frag: Glyph[] = [];
  let lastEnd = -Infinity;
  for (const g of row) {
    if (isSpace(g)) {
      frag.push(g);
      continue;
    }
    if (frag.length && g.x - lastEnd > FRAGMENT_GAP_EM * g.size) {
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
function makeLine(fragment: Glyph[]): TextLine | undefined {
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

/** The font size carrying the most glyphs (rounded to a quarter point). */
export function dominantSize(glyphs: Glyph[]): number {
  const counts = new Map<number, number>();
  for (const g of glyphs) {
    const k = Math.round(g.size * 4) / 4;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  let best = 0;
  let bestCount = -1;
  for (const [k, c] of counts) if (c > bestCount || (c === bestCount && k > best)) [best, bestCount] = [k, c];
  return best;
}
