import type { Box, GrayImage } from '../types.js';
import { otsuThreshold } from './binarise.js';
import type { Classification } from './classifier.js';
import type { SymbolGroup } from './merge.js';
import { paperNoise, SCAN_NOISE_SIGMA } from './scan-noise.js';

/**
 * At 150 dpi a `\tilde` or a `\hat` over a letter is a mark two or three pixels tall whose binarised
 * pixels lie as flat as a bar's, so the merge step calls it a RULE and the parser reads `\bar`. The
 * grey image still shows the difference: a bar's ink has one centre row across its length (or one
 * straight line, tilted), while the ink of a tilde's wave or a hat's peak rises and falls by a
 * fraction of a pixel. Such a mark over a glyph is read again by the classifier, from the image
 * enlarged (small-glyphs.ts), and becomes the accent the classifier reads there.
 */

/** Root-mean-square distance (pixels) of the ink's centre rows from their best line above which a mark waves: bars measure 0.00, tildes 0.13–0.25, hats about 0.8. */
const WAVE_MIN = 0.08;
/** Grey levels under the paper below which a pixel does not count as ink (anti-aliasing haze). */
const HAZE = 20;
/** Share of the mark's width left out at each end, where an anti-aliased end bends. */
const END_SHARE = 0.15;
/** An accent is at most this many times as wide as the glyph under it… */
const MAX_WIDTH_RATIO = 1.5;
/** …and lies above it with a gap of at most this share of the glyph's height. */
const MAX_GAP = 0.5;
/** Classes an accent mark may be read as. */
export const WAVY_ACCENTS = new Set(['\\tilde', '\\hat']);

/**
 * The RULE groups sitting over a glyph as an accent does whose ink waves in the grey image. None on
 * a scan (paper noise σ ≥ SCAN_NOISE_SIGMA): its grain makes a bar's centre rows wave as much.
 */
export function wavyRules(image: GrayImage, groups: readonly SymbolGroup[]): SymbolGroup[] {
  const over = groups.filter((group) => group.rule && groups.some((glyph) => !glyph.rule && accentOver(group.box, glyph.box)));
  if (!over.length || paperNoise(image, otsuThreshold(image)).sigma >= SCAN_NOISE_SIGMA) return [];
  return over.filter((group) => wave(image, group.box) > WAVE_MIN);
}

/** `group` as the accent `label` names, or null when the enlarged read is no wavy accent. */
export function asAccent(group: SymbolGroup, label: Classification): SymbolGroup | null {
  return WAVY_ACCENTS.has(label.latex) ? { ...group, rule: false } : null;
}

function accentOver(mark: Box, glyph: Box): boolean {
  const overlap = Math.min(mark.x1, glyph.x1) - Math.max(mark.x0, glyph.x0);
  const gap = glyph.y0 - mark.y1;
  const glyphWidth = glyph.x1 - glyph.x0;
  return overlap >= 0.5 * (mark.x1 - mark.x0) && mark.x1 - mark.x0 <= MAX_WIDTH_RATIO * glyphWidth && gap >= 0 && gap <= MAX_GAP * (glyph.y1 - glyph.y0);
}

/** How far the darkness-weighted centre row of each inner column strays from the best line through them. */
function wave(image: GrayImage, box: Box): number {
  const y0 = Math.max(0, box.y0 - 1);
  const y1 = Math.min(image.height, box.y1 + 1);
  let paper = 0;
  let samples = 0;
  for (let x = box.x0; x < box.x1; x++) {
    for (const y of [y0 - 1, y1]) {
      if (y < 0 || y >= image.height) continue;
      paper += image.data[y * image.width + x];
      samples++;
    }
  }
  paper = samples ? paper / samples : 255;
  const width = box.x1 - box.x0;
  const xs: number[] = [];
  const centres: number[] = [];
  for (let i = Math.floor(END_SHARE * width); i < Math.ceil((1 - END_SHARE) * width); i++) {
    let mass = 0;
    let moment = 0;
    for (let y = y0; y < y1; y++) {
      const ink = Math.max(0, paper - image.data[y * image.width + box.x0 + i] - HAZE);
      mass += ink;
      moment += ink * y;
    }
    if (mass > 0) {
      xs.push(i);
      centres.push(moment / mass);
    }
  }
  if (xs.length < 3) return 0;
  const meanX = xs.reduce((a, b) => a + b, 0) / xs.length;
  const meanY = centres.reduce((a, b) => a + b, 0) / centres.length;
  let sxy = 0;
  let sxx = 0;
  xs.forEach((x, k) => {
    sxy += (x - meanX) * (centres[k] - meanY);
    sxx += (x - meanX) ** 2;
  });
  const slope = sxx ? sxy / sxx : 0;
  const residual = xs.reduce((sum, x, k) => sum + (centres[k] - meanY - slope * (x - meanX)) ** 2, 0);
  return Math.sqrt(residual / xs.length);
}
