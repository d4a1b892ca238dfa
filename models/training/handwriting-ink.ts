import { strokesBox } from '../../worker/engine/math/strokes/geometry.js';
import type { GrayImage, Stroke } from '../../worker/engine/math/types.js';

/**
 * Pen strokes drawn as a picture of handwriting: a round pen of `penPx` pixels, anti-aliased (each
 * pixel's ink is how much of it the pen covers), dark ink on a light page. The training crops of
 * the handwriting image classifier, its evaluation images and the HTTP tests' handwritten PNGs are
 * all drawn here, so they agree on what a handwritten picture is.
 */
export interface InkOptions {
  /** Pen diameter in pixels. */
  penPx: number;
  /** Grey level of the ink (0 black). @default 20 */
  ink?: number;
  /** Grey level of the page. @default 255 */
  paper?: number;
  /** Blank border around the ink in pixels. @default 4 + penPx */
  marginPx?: number;
}

/** The strokes (already in pixels) drawn onto a page just large enough for them. */
export function inkImage(strokes: readonly Stroke[], opts: InkOptions): GrayImage {
  const box = strokesBox(strokes);
  const margin = opts.marginPx ?? Math.ceil(4 + opts.penPx);
  const width = Math.ceil(box.x1 - box.x0) + 2 * margin + 1;
  const height = Math.ceil(box.y1 - box.y0) + 2 * margin + 1;
  const coverage = new Float32Array(width * height);
  const radius = Math.max(opts.penPx / 2, 0.5);
  for (const s of strokes) {
    const xs = s.x.map((x) => x - box.x0 + margin);
    const ys = s.y.map((y) => y - box.y0 + margin);
    const count = xs.length;
    for (let i = 0; i < Math.max(1, count - 1); i++) {
      const j = Math.min(i + 1, count - 1);
      paintSegment(coverage, width, height, xs[i], ys[i], xs[j], ys[j], radius);
    }
  }
  const ink = opts.ink ?? 20;
  const paper = opts.paper ?? 255;
  const data = Uint8Array.from(coverage, (c) => Math.round(paper + (ink - paper) * Math.min(1, c)));
  return { data, width, height };
}

/** Coverage of the capsule around segment a–b: 1 inside, falling to 0 across the pixel at its edge. */
function paintSegment(coverage: Float32Array, width: number, height: number, ax: number, ay: number, bx: number, by: number, r: number): void {
  const dx = bx - ax;
  const dy = by - ay;
  const length2 = dx * dx + dy * dy;
  const fromX = Math.max(0, Math.floor(Math.min(ax, bx) - r - 1));
  const toX = Math.min(width - 1, Math.ceil(Math.max(ax, bx) + r + 1));
  const fromY = Math.max(0, Math.floor(Math.min(ay, by) - r - 1));
  const toY = Math.min(height - 1, Math.ceil(Math.max(ay, by) + r + 1));
  for (let y = fromY; y <= toY; y++) {
    for (let x = fromX; x <= toX; x++) {
      const px = x + 0.5 - ax;
      const py = y + 0.5 - ay;
      const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, (px * dx + py * dy) / length2));
      const distance = Math.hypot(px - t * dx, py - t * dy);
      const c = Math.max(0, Math.min(1, r + 0.5 - distance));
      const k = y * width + x;
      if (c > coverage[k]) coverage[k] = c;
    }
  }
}
