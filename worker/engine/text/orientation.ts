import type { Box, Rotation } from './image.js';

/**
 * Page orientation by trial: when the upright reading looks poor, the page is read again turned
 * by 90, −90 and 180 degrees on its largest lines only, and the turn whose text the recogniser
 * is most sure of wins. Evidence is the recogniser's own confidence, nothing learned for it.
 */

export const ROTATION_CANDIDATES: Rotation[] = [90, -90, 180];
/** Lines read per trial orientation: the largest boxes, which are the same text in every turn. */
export const ORIENTATION_SAMPLE_LINES = 8;
/** Below this character-weighted confidence the upright reading is doubted. */
export const UPRIGHT_MIN_SCORE = 0.85;
/** Above this share of box area in boxes taller than wide, the page is probably on its side. */
export const TALL_AREA_SHARE = 0.5;

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

export function tallAreaShare(boxes: Box[]): number {
  let tall = 0;
  let total = 0;
  for (const b of boxes) {
    const area = b.width * b.height;
    total += area;
    if (b.height > b.width) tall += area;
  }
  return total ? tall / total : 0;
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

export function uprightLooksPoor(boxes: Box[], score: number): boolean {
  return boxes.length > 0 && (tallAreaShare(boxes) > TALL_AREA_SHARE || score < UPRIGHT_MIN_SCORE);
}
