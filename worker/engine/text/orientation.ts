import type { Box, Rotation } from './image.js';

/**
 * Page orientation. Two kinds of evidence, the first independent of any model's calibration:
 * - geometry: which way the detector's line boxes run. A box several times longer one way than
 *   the other is a line of several characters, and lines run across an upright or upside-down
 *   page and down a page lying on its side. When the line boxes run down, the page is on its
 *   side whatever the upright read scored (an int8 recogniser reads sideways glyphs with
 *   confidences as high as the source model's upright formulas), and only the two quarter turns
 *   are tried. When they run across, a quarter turn is never tried (a short formula may read a
 *   hair better as text on its side); only upside down is, when the upright read looks poor.
 * - the recogniser's confidence on the largest lines, read in each candidate turn: the turn
 *   whose text it is most sure of wins. Without line boxes to go by (single glyphs, a stacked
 *   fraction) every turn is a candidate when the upright read looks poor.
 */

/** Lines read per trial orientation: the largest boxes, which are the same text in every turn. */
export const ORIENTATION_SAMPLE_LINES = 8;
/** Below this character-weighted confidence the upright reading is doubted. */
export const UPRIGHT_MIN_SCORE = 0.85;
/** A box this many times longer than it is thick is a line whose direction counts. */
export const LINE_ASPECT = 2.5;
/** The share of the lines' area that must run one way for the page's lines to run that way. */
export const LINE_DIRECTION_SHARE = 0.75;

/**
 * A Latin read of a line with fewer characters than this per em (the box's width over its
 * height) read little of it: Latin prose reads about 3 a em, while the Latin recogniser reads a
 * line of Han, kana or Hangul as a stray glyph or nothing (0.02 a em on a Chinese page).
 */
export const MIN_LATIN_CHARS_PER_EM = 1;

export type LineDirection = 'across' | 'down' | 'unknown';

export interface ScoredText {
  text: string;
  confidence: number;
}

/** Indices of the `n` largest boxes by area. */
export function largestBoxes(boxes: Box[], n = ORIENTATION_SAMPLE_LINES): number[] {
  return boxes
    .map((b, i) => ({ i, area: b.width * b.height }))
    .sort((a, b) => b.area - a.area)
    .slice(0, n)
    .map((e) => e.i);
}

/** Which way the page's lines run, by the area of its elongated boxes; 'unknown' without a clear majority. */
export function lineDirection(boxes: Box[]): LineDirection {
  let across = 0;
  let down = 0;
  for (const b of boxes) {
    if (b.width >= LINE_ASPECT * b.height) across += b.width * b.height;
    else if (b.height >= LINE_ASPECT * b.width) down += b.width * b.height;
  }
  const total = across + down;
  if (!total) return 'unknown';
  if (down >= LINE_DIRECTION_SHARE * total) return 'down';
  return across >= LINE_DIRECTION_SHARE * total ? 'across' : 'unknown';
}

/** Confidence weighted by character count, so one confident stray glyph cannot carry a page. */
export function orientationScore(lines: ScoredText[]): number {
  let weighted = 0;
  let chars = 0;
  for (const line of lines) {
    const n = [...line.text.trim()].length;
    weighted += line.confidence * n;
    chars += n;
  }
  return chars ? weighted / chars : 0;
}

/**
 * The turns to try besides upright, and whether upright itself stays a candidate: none when the
 * lines run across and the upright read scores well; the quarter turns alone when they run down.
 */
export function turnsToTry(boxes: Box[], uprightScore: number): { turns: Rotation[]; uprightStays: boolean } {
  if (!boxes.length) return { turns: [], uprightStays: true };
  const direction = lineDirection(boxes);
  if (direction === 'down') return { turns: [90, -90], uprightStays: false };
  if (uprightScore >= UPRIGHT_MIN_SCORE) return { turns: [], uprightStays: true };
  return { turns: direction === 'across' ? [180] : [90, -90, 180], uprightStays: true };
}

/**
 * Whether a sample line read by the Latin recogniser must be read again by the whole one: when
 * the Latin read is unsure (the page may be turned) or sparse (the line may be East Asian script).
 * A Latin line read surely and densely reads the same with both recognisers (bench/SCANNED-PAGES.md).
 */
export function latinReadDoubtful(read: ScoredText, box: Box): boolean {
  const chars = [...read.text.trim()].length;
  return read.confidence < UPRIGHT_MIN_SCORE || chars < (MIN_LATIN_CHARS_PER_EM * box.width) / box.height;
}
