import type { InkMask } from '../engine/math/image/binarise.js';
import type { GrayImage } from '../engine/math/types.js';
import type { Box } from '../engine/text/image.js';

/**
 * A page's dress: ink that reaches the page's edge and runs a long way along it — a coloured bar
 * down a slide's or a screen document's side, a slide's title band or dark background, a
 * scanner's dark border. Printed matter keeps a margin, so such ink is no line of the page; left
 * in, a bar down the side holds ink in every pixel row, and cutting the page into rows of ink
 * (bands.ts) gives one band for the whole page, read line by line as text, its displays with it.
 * A glyph cut by the image's edge is short beside the page and stays, and the caller asks only
 * for a page of text: a formula image cropped to its ink has its integral or brace at the edge.
 */

/** Dress runs along at least this share of the page's width or height… */
export const DRESS_SIDE_SHARE = 0.5;
/** …and at least this many text-line heights (a tall brace at the edge of a cropped block is a few). */
export const DRESS_LINE_HEIGHTS = 8;

/**
 * `mask` without its dress (the same mask when it has none); `lineHeight`: the page's text-line
 * height, in pixels. Only the ink 8-connected to the edge is visited, so a page with a margin costs
 * one pass round its border.
 */
export function withoutPageDress(mask: InkMask, lineHeight: number): InkMask {
  const { width, height } = mask;
  const seen = new Uint8Array(width * height);
  const dress: number[][] = [];
  const long = (run: number, side: number) => run >= DRESS_SIDE_SHARE * side && run >= DRESS_LINE_HEIGHTS * lineHeight;
  const from = (start: number) => {
    if (!mask.data[start] || seen[start]) return;
    seen[start] = 1;
    const blob = [start];
    let [x0, y0, x1, y1] = [width, height, 0, 0];
    for (let k = 0; k < blob.length; k++) {
      const i = blob[k]!;
      const [x, y] = [i % width, Math.floor(i / width)];
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x + 1), Math.max(y1, y + 1)];
      for (let ny = Math.max(0, y - 1); ny <= Math.min(height - 1, y + 1); ny++)
        for (let nx = Math.max(0, x - 1); nx <= Math.min(width - 1, x + 1); nx++) {
          const j = ny * width + nx;
          if (mask.data[j] && !seen[j]) {
            seen[j] = 1;
            blob.push(j);
          }
        }
    }
    if (long(x1 - x0, width) || long(y1 - y0, height)) dress.push(blob);
  };
  for (let x = 0; x < width; x++) {
    from(x);
    from((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    from(y * width);
    from(y * width + width - 1);
  }
  if (!dress.length) return mask;
  const data = Uint8Array.from(mask.data);
  for (const blob of dress) for (const i of blob) data[i] = 0;
  return { data, width, height };
}

/** A page whose median grey, and its text lines' median grey, are darker than this is printed light on dark. */
export const DARK_PAGE_GREY = 128;

/**
 * A page printed light on dark (a slide's dark theme, a film negative) as its negative, dark on
 * light, its backgrounds (the page's median grey, and its lines') made white as paper is; any other page as it is.
 * Both the page and what lies under its text lines (`lines`, the text engine's boxes on the image:
 * mostly their paper) must be dark: a photographed page on a dark table has light paper under its
 * lines whatever surrounds it, and lines of solid ink on white paper are no negative. The text
 * engine reads either, but a dark page binarises as one blob of ink: its background is dress
 * (withoutPageDress) and its light lines are no ink at all, so its displays were never read as
 * maths; a grey background left around a row's crop, beside the crop's white margin, still read
 * as nothing.
 */
export function asPositive(image: GrayImage, lines: Box[]): GrayImage {
  const page = medianGrey(image, [{ x: 0, y: 0, width: image.width, height: image.height }]);
  const underLines = medianGrey(image, lines);
  if (page >= DARK_PAGE_GREY || underLines >= DARK_PAGE_GREY) return image;
  // The lighter of the two papers turns white, and the darker with it (a slide's lighter blocks on its background).
  const scale = 255 / (255 - Math.max(page, underLines));
  return { ...image, data: image.data.map((g) => Math.min(255, Math.round((255 - g) * scale))) };
}

/** The median grey of the image's pixels inside `boxes` (255 when they hold none). */
function medianGrey(image: GrayImage, boxes: Box[]): number {
  const counts = new Uint32Array(256);
  let total = 0;
  for (const b of boxes) {
    const [x0, x1] = [Math.max(0, Math.floor(b.x)), Math.min(image.width, Math.ceil(b.x + b.width))];
    for (let y = Math.max(0, Math.floor(b.y)); y < Math.min(image.height, Math.ceil(b.y + b.height)); y++)
      for (let x = x0; x < x1; x++, total++) counts[image.data[y * image.width + x]!]!++;
  }
  if (!total) return 255;
  let below = 0;
  let median = 0;
  while (median < 255 && (below += counts[median]!) < total / 2) median++;
  return median;
}
