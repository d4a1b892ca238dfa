import type { InkMask } from '../engine/math/image/binarise.js';
import { connectedComponents } from '../engine/math/image/components.js';
import type { Band } from './bands.js';

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
  return specksOf(mask).mask;
}

/** A page's ink without its specks (`mask`), the specks' boxes, and the glyph height they were judged by. */
export function specksOf(mask: InkMask): { mask: InkMask; specks: Band[]; glyph: number } {
  const { labels, components } = connectedComponents(mask);
  const glyph = glyphHeight(components.map((c) => ({ height: c.box.y1 - c.box.y0, area: c.area })));
  const limit = Math.floor((SPECK_SHARE * glyph) ** 2);
  if (limit < 1) return { mask, specks: [], glyph };
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
  if (!any) return { mask, specks: [], glyph };
  const data = new Uint8Array(mask.data.length);
  for (let i = 0; i < data.length; i++) data[i] = mask.data[i] && !speck[labels[i]!] ? 1 : 0;
  return { mask: { data, width: mask.width, height: mask.height }, specks: components.filter((c) => speck[c.id]).map((c) => c.box), glyph };
}

/** A full stop may stand this many glyph heights after its row's last glyph: TeX's `\quad.` is an em, about two. */
export const FULL_STOP_REACH = 2.5;

/**
 * `bands` each reaching over the specks that end it: a dot in the lower half of a band's rows, at
 * most FULL_STOP_REACH glyph heights after its ink, is the full stop of the display or sentence
 * (`… = e^{x}.`), not dust. After a superscript or a quad it stands clear of the row's glyphs, so
 * it was taken for a speck and the band cut before it.
 */
export function withFullStops(bands: Band[], specks: readonly Band[], glyph: number): Band[] {
  const reach = FULL_STOP_REACH * glyph;
  const leftToRight = [...specks].sort((a, b) => a.x0 - b.x0);
  return bands.map((band) => {
    let x1 = band.x1;
    for (const dot of leftToRight) {
      const lower = dot.y0 >= (band.y0 + band.y1) / 2 && dot.y1 <= band.y1;
      if (lower && dot.x0 >= x1 && dot.x0 - x1 <= reach) x1 = dot.x1;
    }
    return x1 === band.x1 ? band : { ...band, x1 };
  });
}
