import type { Box } from '../../page/geometry.js';
import { inNumberStrip, type NumberStrip, recognisedLineNumbers } from '../../page/processors/recognised-line-numbers.js';
import type { InkMask } from '../engine/math/image/binarise.js';
import { connectedComponents } from '../engine/math/image/components.js';
import type { GrayImage } from '../engine/math/types.js';
import type { OcrLine } from '../engine/text/index.js';

/**
 * A page image without its margin line numbers (page/processors/recognised-line-numbers.ts):
 * page furniture, taken out before the page is read for maths, as a born-digital page's are taken
 * out of its glyphs. Their words leave the text lines (a line that was only a number goes), and
 * their ink leaves the page the maths pass cuts into rows: the number beside a display row is ink
 * the text model may never have read as a word, so every blob lying wholly in the numbers' strip
 * is taken out, wherever it stands in the strip's rows.
 */
export interface UnnumberedPage {
  lines: OcrLine[];
  mask: InkMask;
  gray: GrayImage;
}

/** White kept around a number's blob when it is painted out of the grey page (its anti-aliased edge). */
const EDGE_PX = 1;

export function withoutMarginNumbers(page: UnnumberedPage, toUpright: (b: Box) => Box, toInput: (b: Box) => Box): UnnumberedPage {
  const upright = page.lines.map((l) => ({ box: toUpright(l.box), words: l.words.map((w) => ({ text: w.text, box: toUpright(w.box) })) }));
  const strips = recognisedLineNumbers(upright);
  if (strips.length === 0) return page;
  const lines = page.lines.flatMap((line, i) => {
    const kept = line.words.filter((_, k) => !inNumberStrip(strips, upright[i]!.words[k]!.box));
    if (kept.length === line.words.length) return [line];
    if (kept.length === 0) return [];
    return [{ ...line, text: kept.map((w) => w.text).join(' '), words: kept, box: toInput(trimmed(upright[i]!.box, strips)) }];
  });
  return { lines, ...withoutStripInk(page.mask, page.gray, strips) };
}

/** A line's box cut back to the text block's side of the strips its rows cross. */
function trimmed(box: Box, strips: readonly NumberStrip[]): Box {
  let [x0, x1] = [box.x, box.x + box.width];
  const middle = box.y + box.height / 2;
  for (const s of strips) {
    if (middle < s.y0 || middle >= s.y1) continue;
    if (s.x1 > x0 && s.x0 <= x0) x0 = s.x1;
    if (s.x0 < x1 && s.x1 >= x1) x1 = s.x0;
  }
  return { ...box, x: x0, width: Math.max(1, x1 - x0) };
}

/** The mask and grey page without the blobs lying wholly in a strip. */
function withoutStripInk(mask: InkMask, gray: GrayImage, strips: readonly NumberStrip[]): { mask: InkMask; gray: GrayImage } {
  const { labels, components } = connectedComponents(mask);
  const inside = components.filter(({ box }) => strips.some((s) => box.x0 >= s.x0 && box.x1 <= s.x1 && box.y0 >= s.y0 && box.y1 <= s.y1));
  if (inside.length === 0) return { mask, gray };
  const erased = new Uint8Array(components.length + 1);
  for (const c of inside) erased[c.id] = 1;
  const data = mask.data.map((v, i) => (v && erased[labels[i]!] ? 0 : v));
  const grey = new Uint8Array(gray.data);
  for (const { box } of inside) {
    for (let y = Math.max(0, box.y0 - EDGE_PX); y < Math.min(gray.height, box.y1 + EDGE_PX); y++) {
      grey.fill(255, y * gray.width + Math.max(0, box.x0 - EDGE_PX), y * gray.width + Math.min(gray.width, box.x1 + EDGE_PX));
    }
  }
  return { mask: { ...mask, data }, gray: { ...gray, data: grey } };
}
