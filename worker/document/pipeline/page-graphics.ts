import { OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Box } from '../../engine/math/types.js';
import type { PageGraphics, PathBox } from '../../../page/glyph-lines.js';
import { multiplyMatrix, transformBox } from '../../engine/math/pdf/matrix.js';
import { PAINT_OPS, STROKE_OPS } from '../../engine/math/pdf/page-reader.js';

/**
 * Where a born-digital page paints pictures and vector shapes. The operator list is replayed for
 * the current transform only — save/restore, cm, form XObjects — as the maths front end
 * (engine/math/pdf/page-reader.ts) does for glyphs and rules; text state is not needed here.
 * Boxes are PDF points in the viewport, origin top-left, y down.
 */

export type { PageGraphics, PathBox };

export interface OperatorList {
  fnArray: number[];
  argsArray: unknown[];
}

/** A painted shape at most this thick (points) in one direction is a rule, not an area. */
export const THIN_PT = 3;

const IMAGE_OPS = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject]);

/** Replays `ops` from the viewport transform and records the boxes of images and painted paths. */
export function readPageGraphics(ops: OperatorList, viewportTransform: number[]): PageGraphics {
  const images: Box[] = [];
  const paths: PathBox[] = [];
  const stack: { ctm: number[]; lineWidth: number }[] = [];
  let ctm = viewportTransform;
  let lineWidth = 1;
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i]!;
    const args = ops.argsArray[i] as unknown[];
    if (fn === OPS.save) stack.push({ ctm, lineWidth });
    else if (fn === OPS.restore) ({ ctm, lineWidth } = stack.pop() ?? { ctm, lineWidth });
    else if (fn === OPS.transform) ctm = multiplyMatrix(ctm, args as number[]);
    else if (fn === OPS.setLineWidth) lineWidth = args[0] as number;
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push({ ctm, lineWidth });
      if (args[0]) ctm = multiplyMatrix(ctm, Array.from(args[0] as ArrayLike<number>));
    } else if (fn === OPS.paintFormXObjectEnd) ({ ctm, lineWidth } = stack.pop() ?? { ctm, lineWidth });
    else if (IMAGE_OPS.has(fn)) images.push(transformBox(ctm, 0, 0, 1, 1));
    else if (fn === OPS.constructPath) {
      const path = pathBox(args, ctm, lineWidth);
      if (path) paths.push(path);
    }
  }
  return { images, paths };
}

function pathBox(args: unknown[], ctm: number[], lineWidth: number): PathBox | undefined {
  const [op, , minMax] = args as [number, unknown, ArrayLike<number> | null];
  if (!PAINT_OPS.has(op) || !minMax || minMax.length < 4) return undefined;
  const [minX, minY, maxX, maxY] = [minMax[0]!, minMax[1]!, minMax[2]!, minMax[3]!];
  // A stroke paints half the line width either side of the path (a 0 width is one device pixel).
  const half = STROKE_OPS.has(op) ? Math.max(lineWidth, 0.5) / 2 : 0;
  const box = transformBox(ctm, minX - half, minY - half, maxX + half, maxY + half);
  const thin = Math.min(box.x1 - box.x0, box.y1 - box.y0) <= THIN_PT;
  return { ...box, thin };
}
