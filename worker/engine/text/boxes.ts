import type { Box } from './image.js';

/**
 * DB post-processing (PaddleOCR's DBPostProcess, axis-aligned): threshold the probability map,
 * take 8-connected components, score each by the mean probability inside its outline (row by row,
 * from the component's first to its last pixel: PaddleOCR's polygon score mode), then grow the
 * box by the unclip distance (area × ratio / perimeter) because DB predicts a shrunk text kernel.
 * The outline, not the box: a line whose formula has tall parts (a sum's limits, a fraction) has
 * a box with empty corners, whose mean fell under the threshold and lost the whole line.
 */

export interface DbOptions {
  /** Pixel threshold of the probability map. @default 0.3 */
  threshold?: number;
  /** Minimum mean probability inside a box. @default 0.6 */
  boxThreshold?: number;
  /** @default 1.5 */
  unclipRatio?: number;
  /** Shorter side (map pixels) below which a kernel is dropped. @default 3 */
  minSize?: number;
  /** @default 1000 */
  maxCandidates?: number;
}

export interface ScoredBox extends Box {
  score: number;
}

/** Boxes in map coordinates (fractional), from a `width` × `height` probability map. */
export function boxesFromProbabilityMap(prob: Float32Array, width: number, height: number, opts: DbOptions = {}): ScoredBox[] {
  const threshold = opts.threshold ?? 0.3;
  const boxThreshold = opts.boxThreshold ?? 0.6;
  const unclipRatio = opts.unclipRatio ?? 1.5;
  const minSize = opts.minSize ?? 3;
  const maxCandidates = opts.maxCandidates ?? 1000;

  const boxes: ScoredBox[] = [];
  for (const c of connectedComponents(prob, width, height, threshold).slice(0, maxCandidates)) {
    // Pixel centres, as OpenCV's contour points are: a kernel over columns 10..20 is 10 wide.
    const w = c.maxX - c.minX;
    const h = c.maxY - c.minY;
    if (Math.min(w, h) < minSize) continue;
    const score = meanInOutline(prob, width, c);
    if (score < boxThreshold) continue;
    const d = (w * h * unclipRatio) / (2 * (w + h));
    const x0 = Math.max(0, c.minX - d);
    const y0 = Math.max(0, c.minY - d);
    const x1 = Math.min(width, c.maxX + d);
    const y1 = Math.min(height, c.maxY + d);
    if (Math.min(x1 - x0, y1 - y0) < minSize + 2) continue;
    boxes.push({ x: x0, y: y0, width: x1 - x0, height: y1 - y0, score });
  }
  return boxes;
}

interface Component {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  /** Per row from minY: the first and last column of the component. */
  rowFirst: Int32Array;
  rowLast: Int32Array;
}

/** 8-connected components of `prob > threshold`, by flood fill with an explicit stack. */
export function connectedComponents(prob: Float32Array, width: number, height: number, threshold: number): Component[] {
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const pixels = new Int32Array(width * height);
  const out: Component[] = [];
  for (let start = 0; start < prob.length; start++) {
    if (seen[start] || prob[start] <= threshold) continue;
    const c = { minX: width, minY: height, maxX: -1, maxY: -1 };
    let top = 0;
    let count = 0;
    stack[top++] = start;
    seen[start] = 1;
    while (top > 0) {
      const p = stack[--top];
      pixels[count++] = p;
      const x = p % width;
      const y = (p - x) / width;
      if (x < c.minX) c.minX = x;
      if (x > c.maxX) c.maxX = x;
      if (y < c.minY) c.minY = y;
      if (y > c.maxY) c.maxY = y;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const q = ny * width + nx;
          if (seen[q] || prob[q] <= threshold) continue;
          seen[q] = 1;
          stack[top++] = q;
        }
      }
    }
    const rows = c.maxY - c.minY + 1;
    const rowFirst = new Int32Array(rows).fill(width);
    const rowLast = new Int32Array(rows).fill(-1);
    for (let i = 0; i < count; i++) {
      const x = pixels[i] % width;
      const r = (pixels[i] - x) / width - c.minY;
      if (x < rowFirst[r]) rowFirst[r] = x;
      if (x > rowLast[r]) rowLast[r] = x;
    }
    out.push({ ...c, rowFirst, rowLast });
  }
  return out;
}

function meanInOutline(prob: Float32Array, width: number, c: Component): number {
  let sum = 0;
  let n = 0;
  for (let r = 0; r < c.rowFirst.length; r++) {
    const row = (c.minY + r) * width;
    for (let x = c.rowFirst[r]; x <= c.rowLast[r]; x++) sum += prob[row + x];
    n += Math.max(0, c.rowLast[r] - c.rowFirst[r] + 1);
  }
  return n ? sum / n : 0;
}
