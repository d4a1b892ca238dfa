import type { FigureCandidate } from '../../../page/processors/figure-regions.js';
import type { TextLine } from './text-layer.js';

/**
 * Candidates of a scanned page: large blobs of ink outside the lines the OCR read. The page image
 * is reduced to a grid of CELL_PT cells, a cell is ink when any pixel in it is dark, the text
 * lines are blanked, ink that runs unbroken from the page's edge is blanked (pageEdgeInk), and
 * cells within GAP_CELLS of each other join one blob.
 */

/** Grid cell size in points: fine enough to keep a caption's gap, coarse enough to be fast. */
const CELL_PT = 3;
/** Cells of ink this far apart (in cells) still join: the gaps inside a line drawing. */
const GAP_CELLS = 2;
/** Gray level under which a pixel is ink (0 black, 255 white). */
const INK_LEVEL = 160;
/** A blob whose ink fills less than this share of its cells is strokes (lines, frames, rules). */
const STROKE_FILL = 0.25;

export interface GrayImage {
  data: Uint8Array | Buffer;
  width: number;
  height: number;
  /** Pixels per point. */
  scale: number;
}

export function scannedCandidates(img: GrayImage, lines: TextLine[]): FigureCandidate[] {
  const cellPx = Math.max(1, Math.round(CELL_PT * img.scale));
  const cols = Math.ceil(img.width / cellPx);
  const rows = Math.ceil(img.height / cellPx);
  const ink = new Uint8Array(cols * rows);
  for (let y = 0; y < img.height; y++) {
    const row = Math.floor(y / cellPx) * cols;
    for (let x = 0; x < img.width; x++) if (img.data[y * img.width + x]! < INK_LEVEL) ink[row + Math.floor(x / cellPx)] = 1;
  }
  // The OCR's lines, a little padded, are text whatever they contain.
  for (const l of lines) {
    const pad = 0.2 * l.size;
    const [c0, c1] = [Math.floor(((l.x0 - pad) * img.scale) / cellPx), Math.ceil(((l.x1 + pad) * img.scale) / cellPx)];
    const [r0, r1] = [Math.floor(((l.top - pad) * img.scale) / cellPx), Math.ceil(((l.bottom + pad) * img.scale) / cellPx)];
    for (let r = Math.max(0, r0); r < Math.min(rows, r1); r++) ink.fill(0, r * cols + Math.max(0, c0), r * cols + Math.min(cols, c1));
  }
  clearPageEdgeInk(ink, cols, rows);
  const cellPt = cellPx / img.scale;
  return blobs(ink, cols, rows).map((b) => ({
    x0: b.c0 * cellPt,
    y0: b.r0 * cellPt,
    x1: (b.c1 + 1) * cellPt,
    y1: (b.r1 + 1) * cellPt,
    ruleOnly: b.cells / ((b.c1 - b.c0 + 1) * (b.r1 - b.r0 + 1)) < STROKE_FILL,
  }));
}

/**
 * Blanks the ink cells joined, cell to touching cell, to the page's edge: a coloured bar down the
 * page's side, a slide's dark background or title band, a scanner's dark border. Printed matter
 * keeps a margin, so ink that reaches the edge is the page's dress, not a figure; left in, it
 * joins (within GAP_CELLS) the ink beside every line it passes — an equation's limits, a
 * bullet, a heading's rule — into one blob as tall as the page, and the page's text becomes a
 * figure (a side-barred or dark-background slide came back as one picture and no text).
 */
function clearPageEdgeInk(ink: Uint8Array, cols: number, rows: number): void {
  const stack: number[] = [];
  const visit = (i: number) => {
    if (!ink[i]) return;
    ink[i] = 0;
    stack.push(i);
  };
  for (let c = 0; c < cols; c++) {
    visit(c);
    visit((rows - 1) * cols + c);
  }
  for (let r = 0; r < rows; r++) {
    visit(r * cols);
    visit(r * cols + cols - 1);
  }
  while (stack.length) {
    const i = stack.pop()!;
    const [r, c] = [Math.floor(i / cols), i % cols];
    for (let rr = Math.max(0, r - 1); rr <= Math.min(rows - 1, r + 1); rr++)
      for (let cc = Math.max(0, c - 1); cc <= Math.min(cols - 1, c + 1); cc++) visit(rr * cols + cc);
  }
}

interface Blob {
  c0: number;
  r0: number;
  c1: number;
  r1: number;
  cells: number;
}

/** Connected groups of ink cells, neighbours being cells within GAP_CELLS in both directions. */
function blobs(ink: Uint8Array, cols: number, rows: number): Blob[] {
  const seen = new Uint8Array(ink.length);
  const out: Blob[] = [];
  const stack: number[] = [];
  for (let start = 0; start < ink.length; start++) {
    if (!ink[start] || seen[start]) continue;
    const blob: Blob = { c0: cols, r0: rows, c1: -1, r1: -1, cells: 0 };
    seen[start] = 1;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop()!;
      const [r, c] = [Math.floor(i / cols), i % cols];
      blob.cells++;
      [blob.c0, blob.c1, blob.r0, blob.r1] = [Math.min(blob.c0, c), Math.max(blob.c1, c), Math.min(blob.r0, r), Math.max(blob.r1, r)];
      for (let rr = Math.max(0, r - GAP_CELLS); rr <= Math.min(rows - 1, r + GAP_CELLS); rr++)
        for (let cc = Math.max(0, c - GAP_CELLS); cc <= Math.min(cols - 1, c + GAP_CELLS); cc++) {
          const j = rr * cols + cc;
          if (ink[j] && !seen[j]) {
            seen[j] = 1;
            stack.push(j);
          }
        }
    }
    out.push(blob);
  }
  return out;
}
