import type { Box, GrayImage } from '../types.js';
import { binarise } from './binarise.js';
import type { Classification, SymbolClassifier } from './classifier.js';
import { connectedComponents, type ComponentMap } from './components.js';
import type { SymbolGroup } from './merge.js';
import { normaliseCrop, type NormalisedCrop } from './normalise.js';

/**
 * The fewest pixels per em the typeset classifier learnt from (models/training/generate-symbols.ts
 * EM_PX_RANGE). A 150 dpi formula's second-level scripts (`e^{-\frac{x}{RC}}`'s numerator and
 * denominator) are drawn at about 10: smaller than anything it saw, and binarised at that size a
 * `2` and a `z`, a `4` and a `d` differ by a pixel or two.
 */
export const MIN_TRAINED_EM_PX = 14;
/** Enlargement of the grey image that brings those glyphs into the trained range. */
const FACTOR = 2;
/** Classes this short in em (dots, bars, accents) are not judged by their height. */
const MIN_TYPICAL_HEIGHT_EM = 0.3;

/** One glyph's enlarged crop: `index` into the glyphs it was made for. */
export interface EnlargedView {
  index: number;
  crop: NormalisedCrop;
}

/**
 * Crops, from the grey image enlarged FACTOR times and binarised at that size, of every glyph
 * drawn smaller than the classifier was trained on (its height against its first read's typical
 * height in em gives its pixels per em). The grey levels of the anti-aliased edges, which binarising
 * at the original size throws away, then shape the enlarged glyph's outline. The caller classifies
 * them with the glyphs' own crops (one batch) and keeps the surer read (`surerReads`).
 */
export function enlargedViews(
  enlargedInk: () => ComponentMap,
  glyphs: readonly SymbolGroup[],
  labels: readonly Classification[],
  { classes, typicalHeightEm }: SymbolClassifier['labels'],
  emPx: number,
): EnlargedView[] {
  const small = glyphs.flatMap((glyph, i) => {
    const typical = typicalHeightEm[classes.indexOf(labels[i].latex)];
    if (!(typical >= MIN_TYPICAL_HEIGHT_EM)) return [];
    return (glyph.box.y1 - glyph.box.y0) / typical < MIN_TRAINED_EM_PX ? [i] : [];
  });
  if (!small.length) return [];
  const map = enlargedInk();
  return small.flatMap((index) => {
    const crop = enlargedCrop(map, glyphs[index].box, emPx);
    return crop ? [{ index, crop }] : [];
  });
}

/** The connected components of the image enlarged FACTOR times and binarised at that size. */
export function enlargedMap(image: GrayImage): ComponentMap {
  return connectedComponents(binarise(enlarged(image, FACTOR)));
}

/** The crop, from `map` (enlargedMap's), of the ink inside `box` (a box of the original image), or null if none. */
export function enlargedCrop(map: ComponentMap, { x0, y0, x1, y1 }: Box, emPx: number): NormalisedCrop | null {
  const scaled: Box = { x0: x0 * FACTOR, y0: y0 * FACTOR, x1: x1 * FACTOR, y1: y1 * FACTOR };
  // The enlarged ink inside the glyph's enlarged box: the box leaves out a bar the enlarged
  // binarisation has joined to it, and the half pixel of grey edge it adds around each stroke.
  const ids = map.components.filter((c) => c.box.x0 < scaled.x1 && c.box.x1 > scaled.x0 && c.box.y0 < scaled.y1 && c.box.y1 > scaled.y0).map((c) => c.id);
  return ids.length ? normaliseCrop(map, ids, scaled, emPx * FACTOR) : null;
}

/** `labels` with each enlarged view's read (`reads[k]` of `views[k]`) where the classifier is surer of it. */
export function surerReads(labels: readonly Classification[], views: readonly EnlargedView[], reads: readonly Classification[]): Classification[] {
  const out = [...labels];
  views.forEach(({ index }, k) => {
    if (reads[k].confidence > out[index].confidence) out[index] = reads[k];
  });
  return out;
}

/** The image enlarged `factor` times, each pixel interpolated bilinearly between its source pixels' centres. */
export function enlarged(image: GrayImage, factor: number): GrayImage {
  const width = image.width * factor;
  const height = image.height * factor;
  const data = new Uint8Array(width * height);
  const source = (k: number, size: number): [number, number, number] => {
    const at = Math.min(size - 1, Math.max(0, (k + 0.5) / factor - 0.5));
    const low = Math.floor(at);
    return [low, Math.min(size - 1, low + 1), at - low];
  };
  for (let y = 0; y < height; y++) {
    const [ya, yb, fy] = source(y, image.height);
    for (let x = 0; x < width; x++) {
      const [xa, xb, fx] = source(x, image.width);
      const top = image.data[ya * image.width + xa] * (1 - fx) + image.data[ya * image.width + xb] * fx;
      const bottom = image.data[yb * image.width + xa] * (1 - fx) + image.data[yb * image.width + xb] * fx;
      data[y * width + x] = Math.round(top * (1 - fy) + bottom * fy);
    }
  }
  return { data, width, height };
}
