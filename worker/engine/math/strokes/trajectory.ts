import type { Box, Stroke } from '../types.js';

/**
 * The on-line input of the strokes classifier, shared by training (models/training/strokes-*) and
 * inference: a symbol's strokes in drawing order, resampled to TRAJECTORY_POINTS points at equal
 * steps along the pen's path (the jumps between strokes included, flagged as pen-up), each point
 * with its position in the symbol's box (larger side 1, centred), the direction the pen moves there
 * and the pen-up flag. Order and direction are what a raster throws away: a `2` and a `Z`, a `5`
 * and an `S` are drawn differently even where their ink looks alike.
 */

export const TRAJECTORY_POINTS = 32;
/** x, y, cos and sin of the pen's direction, pen up (1) or down (0). */
export const TRAJECTORY_CHANNELS = 5;
/** log aspect ratio, height in em, whether the height is known. */
export const SYMBOL_FEATURE_COUNT = 3;
/** Ink width added to both sides of a box before its aspect is taken, in em: a dot is round, not 0/0. */
const PEN_EM = 0.03;

interface Segment {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  length: number;
  penUp: boolean;
}

export function trajectory(strokes: readonly Stroke[]): Float32Array {
  const out = new Float32Array(TRAJECTORY_POINTS * TRAJECTORY_CHANNELS);
  const xs = strokes.flatMap((s) => s.x);
  const ys = strokes.flatMap((s) => s.y);
  if (!xs.length) return out;
  const minX = Math.min(...xs),
    maxX = Math.max(...xs),
    minY = Math.min(...ys),
    maxY = Math.max(...ys);
  const scale = 1 / Math.max(maxX - minX, maxY - minY, 1e-9);
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2;
  const segments: Segment[] = [];
  let last: [number, number] | undefined;
  for (const s of strokes) {
    for (let i = 0; i < s.x.length; i++) {
      const p: [number, number] = [(s.x[i] - cx) * scale, (s.y[i] - cy) * scale];
      if (last) segments.push({ x0: last[0], y0: last[1], x1: p[0], y1: p[1], length: Math.hypot(p[0] - last[0], p[1] - last[1]), penUp: i === 0 });
      last = p;
    }
  }
  const total = segments.reduce((sum, g) => sum + g.length, 0);
  if (total === 0) return out;
  let at = 0;
  let walked = 0;
  for (let k = 0; k < TRAJECTORY_POINTS; k++) {
    const target = (total * k) / (TRAJECTORY_POINTS - 1);
    while (at < segments.length - 1 && (walked + segments[at].length < target || segments[at].length === 0)) walked += segments[at++].length;
    const g = segments[at];
    const t = g.length === 0 ? 0 : Math.max(0, Math.min(1, (target - walked) / g.length));
    const o = k * TRAJECTORY_CHANNELS;
    out[o] = g.x0 + (g.x1 - g.x0) * t;
    out[o + 1] = g.y0 + (g.y1 - g.y0) * t;
    out[o + 2] = g.length === 0 ? 0 : (g.x1 - g.x0) / g.length;
    out[o + 3] = g.length === 0 ? 0 : (g.y1 - g.y0) / g.length;
    out[o + 4] = g.penUp ? 1 : 0;
  }
  return out;
}

/**
 * The shape facts the normalised trajectory hides: aspect ratio, and height in em when the em is
 * known (`em` in the strokes' units; unknown: height 0 and flag 0, the em only sizes the pen).
 */
export function symbolFeatures(box: Box, em: number, known: boolean): Float32Array {
  const pen = PEN_EM * em;
  const width = box.x1 - box.x0 + pen;
  const height = box.y1 - box.y0 + pen;
  const aspect = Math.max(-1.5, Math.min(1.5, Math.log2(width / height) / 4));
  return Float32Array.of(aspect, known ? Math.min(3, (box.y1 - box.y0) / em) : 0, known ? 1 : 0);
}
