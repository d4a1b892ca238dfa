import type { Box, Stroke } from '../types.js';
import type { Component, ComponentMap } from '../image/components.js';
import { strokesBox } from './geometry.js';

/**
 * Pen strokes drawn onto a canvas as labelled ink, so the image front end's multi-part grouping
 * (mergeComponents) runs on them unchanged. Writing arrives at any zoom; the canvas rescales it so
 * one em spans CANVAS_EM_PX, and draws every stroke with the same round pen, as a handwritten page
 * would show it. (The classifier reads the strokes themselves: trajectory.ts.)
 */

/** Pixels per em on the canvas. */
export const CANVAS_EM_PX = 64;
/** Pen diameter in canvas pixels: about the stem width of a regular maths font at CANVAS_EM_PX. */
export const PEN_WIDTH_PX = 3;
/** Typical height of a handwritten symbol in em (digits 0.65, x-height 0.45): turns a measured height into an em. */
export const TYPICAL_SYMBOL_HEIGHT_EM = 0.6;

export interface StrokeCanvas {
  /** One component per group of strokes, id = group index + 1, boxes from the painted pixels. */
  map: ComponentMap;
  /** Canvas pixels per stroke unit. */
  scale: number;
  /** A canvas box back in the strokes' own units. */
  toStrokeUnits(box: Box): Box;
}

/**
 * Paints each group of strokes as one component. Where groups overlap the later one keeps the
 * pixel: groups are decided from the strokes, not from which pixels happen to touch.
 */
export function paintStrokeGroups(groups: readonly (readonly Stroke[])[], scale: number, penPx = PEN_WIDTH_PX): StrokeCanvas {
  const all = groups.flat();
  const bounds = strokesBox(all);
  const margin = Math.ceil(penPx / 2) + 2;
  const width = Math.ceil((bounds.x1 - bounds.x0) * scale) + 2 * margin + 1;
  const height = Math.ceil((bounds.y1 - bounds.y0) * scale) + 2 * margin + 1;
  const labels = new Int32Array(width * height);
  const toCanvasX = (x: number) => (x - bounds.x0) * scale + margin;
  const toCanvasY = (y: number) => (y - bounds.y0) * scale + margin;
  groups.forEach((strokes, index) => {
    for (const s of strokes) drawStroke(labels, width, height, s.x.map(toCanvasX), s.y.map(toCanvasY), penPx / 2, index + 1);
  });
  const components: Component[] = groups.map((_, index) => ({ id: index + 1, box: { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity }, area: 0 }));
  for (let i = 0; i < labels.length; i++) {
    if (!labels[i]) continue;
    const c = components[labels[i] - 1];
    const x = i % width;
    const y = (i - x) / width;
    c.area++;
    c.box = { x0: Math.min(c.box.x0, x), y0: Math.min(c.box.y0, y), x1: Math.max(c.box.x1, x + 1), y1: Math.max(c.box.y1, y + 1) };
  }
  return {
    // Empty components stay listed (mergeComponents drops them as specks): normaliseCrop indexes components by id.
    map: { labels, width, height, components },
    scale,
    toStrokeUnits: (b) => ({
      x0: (b.x0 - margin) / scale + bounds.x0,
      y0: (b.y0 - margin) / scale + bounds.y0,
      x1: (b.x1 - margin) / scale + bounds.x0,
      y1: (b.y1 - margin) / scale + bounds.y0,
    }),
  };
}

/** Labels every pixel whose centre lies within `radius` of the polyline (a tap is a disc). */
function drawStroke(labels: Int32Array, width: number, height: number, xs: number[], ys: number[], radius: number, label: number): void {
  const r = Math.max(radius, 0.5);
  const segments = xs.length === 1 ? [[0, 0]] : xs.slice(1).map((_, i) => [i, i + 1]);
  for (const [a, b] of segments) {
    const ax = xs[a],
      ay = ys[a],
      bx = xs[b],
      by = ys[b];
    const dx = bx - ax;
    const dy = by - ay;
    const length2 = dx * dx + dy * dy;
    const fromX = Math.max(0, Math.floor(Math.min(ax, bx) - r));
    const toX = Math.min(width - 1, Math.ceil(Math.max(ax, bx) + r));
    const fromY = Math.max(0, Math.floor(Math.min(ay, by) - r));
    const toY = Math.min(height - 1, Math.ceil(Math.max(ay, by) + r));
    for (let y = fromY; y <= toY; y++) {
      for (let x = fromX; x <= toX; x++) {
        const px = x + 0.5 - ax;
        const py = y + 0.5 - ay;
        const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, (px * dx + py * dy) / length2));
        if ((px - t * dx) ** 2 + (py - t * dy) ** 2 <= r * r) labels[y * width + x] = label;
      }
    }
  }
}
