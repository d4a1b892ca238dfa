import type { Box } from '../types.js';
import type { ComponentMap } from './components.js';

/**
 * The one crop normalisation shared by training (models/training) and inference: a symbol's ink
 * scaled into a square canvas preserving its aspect ratio, plus the shape facts scaling throws
 * away. Training and inference must agree on every detail here, or accuracy silently drops.
 */

/** Side of the square canvas the classifier sees. */
export const CROP_SIZE = 32;
/** Blank border inside the canvas, so strokes never touch its edge. */
const CROP_MARGIN = 2;
/** Sub-samples per output pixel along each axis: enough for smooth coverage when shrinking. */
const SUPERSAMPLE = 4;
/** Inputs beside the pixels: log aspect ratio, height in em, and whether the height is known. */
export const FEATURE_COUNT = 3;

export interface NormalisedCrop {
  /** CROP_SIZE² ink coverages in 0..1, row-major. */
  pixels: Float32Array;
  /** FEATURE_COUNT values; see `cropFeatures`. */
  features: Float32Array;
}

/**
 * The aspect ratio and size the square canvas hides: `|` and `l`, `o` and `O`, `\Sigma` and `\sum`
 * differ mostly there. Size is the box height in em, which only a caller that knows the font size
 * (training, or inference after estimating it) can give; otherwise it is 0 with the flag off.
 */
export function cropFeatures(box: Box, emPx?: number): Float32Array {
  const width = box.x1 - box.x0;
  const height = box.y1 - box.y0;
  const aspect = Math.max(-1.5, Math.min(1.5, Math.log2(width / height) / 4));
  const known = emPx !== undefined && emPx > 0;
  return Float32Array.of(aspect, known ? Math.min(3, height / emPx) : 0, known ? 1 : 0);
}

/** Renders the pixels of components `ids` inside `box` onto the canvas; other ink in the box is ignored. */
export function normaliseCrop(map: ComponentMap, ids: readonly number[], box: Box, emPx?: number): NormalisedCrop {
  const scale = (CROP_SIZE - 2 * CROP_MARGIN) / Math.max(box.x1 - box.x0, box.y1 - box.y0);
  return { pixels: render(map, ids, box, scale, scale), features: cropFeatures(box, emPx) };
}

/**
 * The crop of a wide symbol squeezed sideways into a square, told it is square: how the symbol
 * would look drawn as narrow as its class usually is. Inference only (a second view of a wide
 * crop, symbols-from-image.ts); training crops keep their aspect.
 */
export function squeezedCrop(map: ComponentMap, ids: readonly number[], box: Box, emPx?: number): NormalisedCrop {
  const inner = CROP_SIZE - 2 * CROP_MARGIN;
  const [width, height] = [box.x1 - box.x0, box.y1 - box.y0];
  return { pixels: render(map, ids, box, inner / width, inner / height), features: cropFeatures({ ...box, x1: box.x0 + height }, emPx) };
}

/** Coverage of components `ids`' pixels inside `box`, scaled by `scaleX` and `scaleY` and centred on the canvas. */
function render(map: ComponentMap, ids: readonly number[], box: Box, scaleX: number, scaleY: number): Float32Array {
  const member = new Uint8Array(map.components.length + 1);
  for (const id of ids) member[id] = 1;
  const width = box.x1 - box.x0;
  const height = box.y1 - box.y0;
  const offsetX = (CROP_SIZE - width * scaleX) / 2;
  const offsetY = (CROP_SIZE - height * scaleY) / 2;
  // Source column and row of every sub-sample, -1 outside the box: computed once, not per pixel.
  const samples = CROP_SIZE * SUPERSAMPLE;
  const sourceX = new Int32Array(samples);
  const sourceY = new Int32Array(samples);
  for (let k = 0; k < samples; k++) {
    const x = Math.floor(box.x0 + ((k + 0.5) / SUPERSAMPLE - offsetX) / scaleX);
    const y = Math.floor(box.y0 + ((k + 0.5) / SUPERSAMPLE - offsetY) / scaleY);
    sourceX[k] = x >= box.x0 && x < box.x1 ? x : -1;
    sourceY[k] = y >= box.y0 && y < box.y1 ? y * map.width : -1;
  }
  const pixels = new Float32Array(CROP_SIZE * CROP_SIZE);
  const weight = 1 / (SUPERSAMPLE * SUPERSAMPLE);
  // Sub-sample rows that fall on one source row cover the same columns: each source row is sampled
  // once (an upscaled glyph's rows repeat many times). The sums are exact: multiples of 1/16.
  let sampledRow = -1;
  const covered = new Float32Array(CROP_SIZE);
  for (let sy = 0; sy < samples; sy++) {
    const row = sourceY[sy];
    if (row < 0) continue;
    if (row !== sampledRow) {
      covered.fill(0);
      for (let sx = 0; sx < samples; sx++) {
        const col = sourceX[sx];
        if (col >= 0 && member[map.labels[row + col]]) covered[(sx / SUPERSAMPLE) | 0] += weight;
      }
      sampledRow = row;
    }
    const out = ((sy / SUPERSAMPLE) | 0) * CROP_SIZE;
    for (let x = 0; x < CROP_SIZE; x++) pixels[out + x] += covered[x];
  }
  return pixels;
}
