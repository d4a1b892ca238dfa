import sharp from 'sharp';

/**
 * Closed outlines with writing inside ("text boxes"): the boxes, ellipses, diamonds and circled
 * letters of flow charts, block diagrams, UML and labelled graphs. A structure diagram has none:
 * its atom labels stand where bonds meet, with the bonds stopping short of them, so no closed
 * line surrounds a label; what a ring does enclose are the inner lines of double bonds and wedge
 * hashes, which are straight strokes.
 *
 * On the binarised image: connected ink shapes (8-connected) and background regions
 * (4-connected). A background region that does not reach the image's edge is a hole of some
 * outline. A hole is a text box when it holds at least one glyph, and nothing in it is large:
 * - a glyph is an ink shape that is not one straight stroke (the spread of its pixels across its
 *   main axis is at least MIN_GLYPH_ROUNDNESS of the spread along it) and is at most
 *   MAX_GLYPH_SHARE of the hole's smaller side (an aromatic circle in a ring is larger);
 * - a hole that holds a larger shape (a frame around a whole drawing, a ring inside a ring) is
 *   no text box.
 */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const boxArea = (b: Box) => b.width * b.height;
/** The area two boxes share. */
export const boxOverlap = (a: Box, b: Box) =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) * Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));

/** Gray level under which a pixel is ink (figure-structures.ts measures ink with it too). */
export const INK_LEVEL = 160;
const MIN_GLYPH_ROUNDNESS = 0.2;
const MAX_GLYPH_SHARE = 0.6;
/** Shapes of fewer pixels are specks (a dot of an i, noise), neither glyph nor obstacle. */
const MIN_SHAPE_PIXELS = 6;

interface Shape {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  n: number;
  sx: number;
  sy: number;
  sxx: number;
  syy: number;
  sxy: number;
  /** Background label left of its leftmost pixel: the region around it. */
  around: number;
  leftX: number;
}

/** Labels the pixels where `mask` equals `value` into connected regions; -1 elsewhere. */
function label(mask: Uint8Array, width: number, height: number, value: number, eight: boolean): { labels: Int32Array; count: number } {
  const labels = new Int32Array(mask.length).fill(-1);
  const stack = new Int32Array(mask.length);
  const steps = eight ? [-1, -1, 0, -1, 1, -1, -1, 0, 1, 0, -1, 1, 0, 1, 1, 1] : [0, -1, -1, 0, 1, 0, 0, 1];
  let count = 0;
  for (let start = 0; start < mask.length; start++) {
    if (labels[start] !== -1 || mask[start] !== value) continue;
    let top = 0;
    stack[top++] = start;
    labels[start] = count;
    while (top) {
      const i = stack[--top]!;
      const x = i % width;
      const y = (i - x) / width;
      for (let k = 0; k < steps.length; k += 2) {
        const nx = x + steps[k]!;
        const ny = y + steps[k + 1]!;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const j = ny * width + nx;
        if (labels[j] === -1 && mask[j] === value) {
          labels[j] = count;
          stack[top++] = j;
        }
      }
    }
    count++;
  }
  return { labels, count };
}

/** Spread across the main axis over spread along it: 0 for a straight stroke, 1 for a round blob. */
function roundness(s: Shape): number {
  const [mx, my] = [s.sx / s.n, s.sy / s.n];
  const [a, b, c] = [s.sxx / s.n - mx * mx, s.syy / s.n - my * my, s.sxy / s.n - mx * my];
  const root = Math.sqrt(((a - b) / 2) ** 2 + c * c);
  const [major, minor] = [(a + b) / 2 + root, Math.max(0, (a + b) / 2 - root)];
  return major > 0 ? Math.sqrt(minor / major) : 1;
}

/** The holes of a greyscale image that hold writing, as boxes in its pixels. */
export function textBoxesOfGrey(data: Uint8Array | Buffer, width: number, height: number): Box[] {
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) mask[i] = data[i]! < INK_LEVEL ? 1 : 0;
  const inkLabels = label(mask, width, height, 1, true);
  const bg = label(mask, width, height, 0, false);
  const holes = Array.from({ length: bg.count }, () => ({ x0: width, y0: height, x1: -1, y1: -1, edge: false }));
  const empty = { x0: width, y0: height, x1: -1, y1: -1, n: 0, sx: 0, sy: 0, sxx: 0, syy: 0, sxy: 0, around: -1, leftX: width };
  const shapes: Shape[] = Array.from({ length: inkLabels.count }, () => ({ ...empty }));
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const b = bg.labels[i]!;
      if (b >= 0) {
        const h = holes[b]!;
        [h.x0, h.y0, h.x1, h.y1] = [Math.min(h.x0, x), Math.min(h.y0, y), Math.max(h.x1, x), Math.max(h.y1, y)];
        if (x === 0 || y === 0 || x === width - 1 || y === height - 1) h.edge = true;
        continue;
      }
      const s = shapes[inkLabels.labels[i]!]!;
      [s.x0, s.y0, s.x1, s.y1] = [Math.min(s.x0, x), Math.min(s.y0, y), Math.max(s.x1, x), Math.max(s.y1, y)];
      s.n++;
      s.sx += x;
      s.sy += y;
      s.sxx += x * x;
      s.syy += y * y;
      s.sxy += x * y;
      if (x < s.leftX) {
        s.leftX = x;
        s.around = x > 0 ? bg.labels[i - 1]! : -1;
      }
    }
  const contents = new Map<number, Shape[]>();
  for (const s of shapes) {
    if (s.n < MIN_SHAPE_PIXELS || s.around < 0 || holes[s.around]!.edge) continue;
    contents.set(s.around, [...(contents.get(s.around) ?? []), s]);
  }
  const boxes: Box[] = [];
  for (const [hole, inside] of contents) {
    const h = holes[hole]!;
    const limit = MAX_GLYPH_SHARE * Math.min(h.x1 - h.x0 + 1, h.y1 - h.y0 + 1);
    const small = (s: Shape) => Math.max(s.x1 - s.x0 + 1, s.y1 - s.y0 + 1) <= limit;
    if (inside.every(small) && inside.some((s) => roundness(s) >= MIN_GLYPH_ROUNDNESS))
      boxes.push({ x: h.x0, y: h.y0, width: h.x1 - h.x0 + 1, height: h.y1 - h.y0 + 1 });
  }
  return boxes;
}

/** The text boxes of a PNG (see above). */
export async function textBoxes(png: Buffer): Promise<Box[]> {
  const { data, info } = await sharp(png).flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  return textBoxesOfGrey(data, info.width, info.height);
}
