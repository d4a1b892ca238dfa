import type { InkMask } from '../engine/math/image/binarise.js';
import { connectedComponents } from '../engine/math/image/components.js';

/**
 * Specks of a scanned page: dust, toner spatter and sensor noise that binarise as ink. A few per
 * pixel row are enough to leave ink in every row of a page, so cutting it into rows of ink would
 * give one band for the whole page. A speck is an 8-connected blob of at most (SPECK_SHARE × the
 * page's glyph height)² pixels with no larger blob within SPECK_REACH of the glyph height of it.
 * Small blobs near a glyph stay: the dot of an `i`, a hat or a dot accent, a full stop, a
 * `\cdot` stand a pixel or three off the glyph they belong to, and a band must not lose them (at
 * 150 dpi a `\cdot` is 2×2 pixels, as small as dust). Dust in the blank rows between lines of
 * text stands clear of them, and those are the specks that would join the lines; one next to a
 * glyph lies in its line's rows or adds a row or two to its band.
 */

/** A blob of at most (this share of the glyph height)² pixels may be a speck. */
export const SPECK_SHARE = 1 / 6;
/** …and is one when no larger blob lies within this share of the glyph height of its box. */
export const SPECK_REACH = 1 / 4;
/** Blobs shorter than this, or of fewer than its square of pixels, are left out of the glyph height: at any resolution a text can be read at, a glyph is larger. */
const MIN_GLYPH_PX = 3;

/**
 * The page's glyph height: the median height of its blobs of MIN_GLYPH_PX rows and MIN_GLYPH_PX²
 * pixels or more, 0 when it has none. Counted by blob, so that a frame, a rule or a figure (one
 * blob each, large) weighs no more than a letter; specks, sparse and a few pixels each, are left
 * out (on a noisy image of one formula they outnumber its glyphs).
 */
export function glyphHeight(blobs: readonly { height: number; area: number }[]): number {
  const glyphs = blobs
    .filter((b) => b.height >= MIN_GLYPH_PX && b.area >= MIN_GLYPH_PX ** 2)
    .map((b) => b.height)
    .sort((a, b) => a - b);
  return glyphs[Math.floor(glyphs.length / 2)] ?? 0;
}

/** `mask` without its specks (the same mask when it has none); other ink stays as it is. */
export function withoutSpecks(mask: InkMask): InkMask {
  const { labels, components } = connectedComponents(mask);
  const glyph = glyphHeight(components.map((c) => ({ height: c.box.y1 - c.box.y0, area: c.area })));
  const limit = Math.floor((SPECK_SHARE * glyph) ** 2);
  if (limit < 1) return mask;
  const small = new Uint8Array(components.length + 1);
  for (const c of components) if (c.area <= limit) small[c.id] = 1;
  const reach = Math.ceil(SPECK_REACH * glyph);
  /** Whether a blob larger than a speck has ink within `reach` of `box`. */
  const nearInk = (box: { x0: number; y0: number; x1: number; y1: number }) => {
    for (let y = Math.max(0, box.y0 - reach); y < Math.min(mask.height, box.y1 + reach); y++) {
      for (let x = Math.max(0, box.x0 - reach); x < Math.min(mask.width, box.x1 + reach); x++) {
        const label = labels[y * mask.width + x]!;
        if (label && !small[label]) return true;
      }
    }
    return false;
  };
  const speck = new Uint8Array(components.length + 1);
  let any = false;
  for (const c of components) {
    if (!small[c.id] || nearInk(c.box)) continue;
    speck[c.id] = 1;
    any = true;
  }
  if (!any) return mask;
  const data = new Uint8Array(mask.data.length);
  for (let i = 0; i < data.length; i++) data[i] = mask.data[i] && !speck[labels[i]!] ? 1 : 0;
  return { data, width: mask.width, height: mask.height };
}
