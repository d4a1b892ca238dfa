import { bareFontName, classifyFont, type FontFamily } from '../../engine/math/pdf/tex-fonts.js';
import { dominantSize } from '../../../page/processors/line-measures.js';
import type { Glyph } from './text-layer.js';

/**
 * Which glyphs share a text line, before the line is cut at wide gaps. Full-size glyphs are
 * grouped by baseline first; then scripts, inline fractions' parts and the limits of inline
 * operators (smaller glyphs raised or lowered) join the line they hang off, and TeX's big
 * operators and radical signs, whose ink hangs below their baseline, join the line their ink sits
 * on. Small glyphs with no line near (display limits, footnotes) form lines of their own.
 */

/** A glyph smaller than this share of the page's dominant size is a script or small text. */
const SMALL_SHARE = 0.85;
/** How far a small glyph's baseline may sit above (a superscript, a numerator) or below a line's, in the line's ems. */
const MAX_RAISE_EM = 0.75;
const MAX_LOWER_EM = 0.55;
/** A script sits beside its base: the line must have ink within this many ems sideways. */
const SIDE_REACH_EM = 1.5;

export interface Cluster {
  glyphs: Glyph[];
  /** The largest glyph: its baseline is the cluster's. */
  ref?: Glyph;
  x0: number;
  x1: number;
}

const isSpace = (g: Glyph) => /\s/.test(g.ch);

export function clusterByBaseline(glyphs: Glyph[]): Cluster[] {
  const hanging = glyphs.filter(isHanging);
  const rest = glyphs.filter((g) => !isHanging(g));
  const small = SMALL_SHARE * dominantSize(rest.filter((g) => !isSpace(g)));
  const main = byBaseline(rest.filter((g) => g.size >= small));
  const strays: Glyph[] = [];
  for (const g of rest) {
    if (g.size >= small) continue;
    const home = lineOf(g, main);
    if (home) add(home, g);
    else strays.push(g);
  }
  const clusters = [...main, ...byBaseline(strays)];
  for (const g of hanging) {
    const home = clusterUnder(g, clusters);
    if (home) add(home, g);
    else clusters.push({ glyphs: [g], ref: g, x0: g.x, x1: g.x + g.w });
  }
  return clusters;
}

/** Runs of glyphs whose baselines stay within half an em of the run's largest glyph. */
function byBaseline(glyphs: Glyph[]): Cluster[] {
  const sorted = [...glyphs].sort((a, b) => a.base - b.base || a.x - b.x);
  const clusters: Cluster[] = [];
  let current: Cluster | undefined;
  for (const g of sorted) {
    if (current?.ref && Math.abs(g.base - current.ref.base) > 0.5 * Math.max(current.ref.size, g.size)) current = undefined;
    if (!current) clusters.push((current = { glyphs: [], x0: g.x, x1: g.x + g.w }));
    add(current, g);
    if (!isSpace(g) && (!current.ref || g.size > current.ref.size)) current.ref = g;
  }
  return clusters;
}

function add(cluster: Cluster, g: Glyph): void {
  cluster.glyphs.push(g);
  cluster.x0 = Math.min(cluster.x0, g.x);
  cluster.x1 = Math.max(cluster.x1, g.x + g.w);
}

const reaches = (c: Cluster, g: Glyph, ems: number) => c.x0 < g.x + g.w + ems * g.size && c.x1 > g.x - ems * g.size;

/** The line a small glyph is a script of: the nearest baseline within reach, raised or lowered. */
function lineOf(g: Glyph, clusters: Cluster[]): Cluster | undefined {
  let best: { cluster: Cluster; score: number } | undefined;
  for (const cluster of clusters) {
    const ref = cluster.ref;
    if (!ref) continue;
    const rise = ref.base - g.base;
    const score = rise >= 0 ? rise / (MAX_RAISE_EM * ref.size) : -rise / (MAX_LOWER_EM * ref.size);
    if (score > 1 || (best && score >= best.score) || !reaches(cluster, g, SIDE_REACH_EM)) continue;
    best = { cluster, score };
  }
  return best?.cluster;
}

/**
 * Font families by bare name, kept for the worker's life. Keyed without the subset tag, which
 * usually differs from one document to the next (a worker would otherwise keep ~80 bytes per
 * embedded font of every document it ever read), and cleared when full: names come from customers' files.
 */
const hangingFonts = new Map<string, FontFamily>();
const HANGING_FONTS_CACHED = 1_024;

/** A glyph of TeX's extension font (CMEX), or a radical sign from its symbol font: its ink hangs from its baseline down. */
export function isHanging(g: Glyph): boolean {
  const name = bareFontName(g.font);
  let family = hangingFonts.get(name);
  if (family === undefined) {
    if (hangingFonts.size >= HANGING_FONTS_CACHED) hangingFonts.clear();
    hangingFonts.set(name, (family = classifyFont(name)));
  }
  return family === 'extension' || (family === 'symbols' && g.ch === '√');
}

/** For tests: how many font names isHanging's cache holds. */
export const hangingFontsCached = () => hangingFonts.size;

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
    if (distance > 0.5 * g.size || (best && distance >= best.distance) || !reaches(cluster, g, 2)) continue;
    best = { cluster, distance };
  }
  return best?.cluster;
}
