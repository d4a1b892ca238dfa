import type { GrayImage } from '../types.js';
import { greyCounts, inkGrey, paperNoiseOf, SCAN_NOISE_SIGMA, type ScanNoise, smoothed } from './scan-noise.js';

/** Ink mask of a raster: 1 where a pixel is ink, 0 for background; same size and order as the image. */
export interface InkMask {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * A page with nothing on it still has a little noise, and Otsu would split that noise in two.
 * Below this spread between the darkest and lightest grey the image is treated as blank.
 */
const MIN_CONTRAST = 48;

/**
 * Otsu's threshold over the 256-bin histogram: the grey level that best separates ink from paper.
 * Anti-aliased edge pixels fall on whichever side is nearer, which keeps strokes at about their
 * true width across renderers. When a range of levels separates equally well (no greys between
 * ink and paper) the middle of the range is taken, not its dark end.
 */
export function otsuThreshold(image: GrayImage): number {
  return otsuOf(greyCounts(image.data));
}

/** otsuThreshold of the image whose grey levels `histogram` counts (scan-noise.ts greyCounts). */
export function otsuOf(histogram: Uint32Array): number {
  let total = 0;
  let sumAll = 0;
  for (let g = 0; g < 256; g++) {
    total += histogram[g]!;
    sumAll += g * histogram[g]!;
  }
  let weightDark = 0;
  let sumDark = 0;
  let best = -1;
  let first = 127;
  let last = 127;
  for (let g = 0; g < 255; g++) {
    weightDark += histogram[g]!;
    if (weightDark === 0) continue;
    const weightLight = total - weightDark;
    if (weightLight === 0) break;
    sumDark += g * histogram[g]!;
    const meanDark = sumDark / weightDark;
    const meanLight = (sumAll - sumDark) / weightLight;
    const between = weightDark * weightLight * (meanDark - meanLight) ** 2;
    if (between > best * (1 + 1e-12)) {
      best = between;
      first = last = g;
    } else if (between >= best * (1 - 1e-12)) {
      last = g;
    }
  }
  return Math.floor((first + last) / 2);
}

/** A scan's levels lie this many σ of its smoothed paper noise below the paper: strong, seed, weak. */
const STRONG_SIGMAS = 5;
const SEED_SIGMAS = 4;
const WEAK_SIGMAS = 3;

/**
 * The level a stroke must reach somewhere (seed) and the level ink grows to from it (weak), both
 * set from the strong level: Otsu's (`otsu`, of this image), or on a scan (`noise`, its smoothed
 * paper) no lighter than its noise and ink allow.
 */
function levels(image: GrayImage, lightest: number, otsu: number, noise: ScanNoise | null): { seed: number; weak: number } {
  // A hairline that falls between two pixel rows (a script-size `=` bar at 150 dpi) has no pixel
  // as dark as Otsu's level: seed a quarter of the way towards the paper so it is not lost.
  if (!noise) return { seed: Math.round(otsu + (lightest - otsu) / 4), weak: Math.round((otsu + lightest) / 2) };
  const { paper, sigma } = noise;
  const darkest = paper - STRONG_SIGMAS * sigma;
  const strong = Math.min(otsu, darkest, (inkGrey(image, darkest) + paper) / 2);
  return {
    seed: Math.min(strong + (lightest - strong) / 4, paper - SEED_SIGMAS * sigma),
    weak: Math.min((strong + lightest) / 2, paper - WEAK_SIGMAS * sigma),
  };
}

/**
 * A scan's paper grey and noise as binarisation sets its levels from them (those of the smoothed
 * image), or null for a clean image (paper noise under SCAN_NOISE_SIGMA). A crop of a page is
 * binarised with its page's (GrayImage `scan`): a band holds too little paper, much of it the
 * blurred edges of strokes, to measure it; its own measure swung by half and thinned its strokes.
 */
export function scanNoise(raw: GrayImage): ScanNoise | null {
  const counts = greyCounts(raw.data);
  if (paperNoiseOf(counts, otsuOf(counts)).sigma < SCAN_NOISE_SIGMA) return null;
  const smooth = greyCounts(smoothed(raw).data);
  return paperNoiseOf(smooth, otsuOf(smooth));
}

/**
 * The grey a scan is binarised from (smoothed) and its paper noise, its page's for an image cut
 * from a page (GrayImage `scan`); null for a clean image, which is binarised as it is.
 */
export function scanGrey(raw: GrayImage): { grey: GrayImage; noise: ScanNoise } | null {
  const noise = raw.scan === undefined ? scanNoise(raw) : raw.scan;
  return noise ? { grey: smoothed(raw), noise } : null;
}

/**
 * Dark-on-light greyscale → ink mask; an image without contrast yields an empty mask. Hysteresis:
 * pixels a little lighter than Otsu's threshold are ink, and so are pixels halfway to the paper grey that
 * touch ink — the faint anti-aliased middle of a hairline stroke — so thin strokes stay connected
 * without isolated grey noise turning into ink.
 *
 * A scan (paper noise of SCAN_NOISE_SIGMA or more, scan-noise.ts) is first smoothed, which takes a
 * speck of dust to a quarter of its depth and the grain to about a third, and its three levels are kept
 * clear of what is left of the noise: a seed must be SEED_SIGMAS darker than the paper, a pixel joins
 * it at WEAK_SIGMAS, and the strong level lies no lighter than halfway from the ink's grey to the
 * paper's (Otsu's, on a small crop of grainy paper, lies close to the paper). A clean render keeps
 * its levels exactly. An image cut from a page (its `scan` set) is read as its page is: smoothed and
 * with the page's noise, or clean.
 */
export function binarise(raw: GrayImage): InkMask {
  const scan = scanGrey(raw);
  const noise = scan?.noise ?? null;
  const image = scan?.grey ?? raw;
  const mask = new Uint8Array(image.width * image.height);
  const counts = greyCounts(image.data);
  let darkest = 0;
  while (darkest < 255 && !counts[darkest]) darkest++;
  let lightest = 255;
  while (lightest > 0 && !counts[lightest]) lightest--;
  if (lightest - darkest >= MIN_CONTRAST) {
    const { seed, weak } = levels(image, lightest, otsuOf(counts), noise);
    growInk(image, mask, seed, weak);
  }
  return { data: mask, width: image.width, height: image.height };
}

/**
 * Marks in `mask` the pixels at most `seed`, and those at most `weak` 8-connected to them: the
 * weak pixels that touch a seed start a flood through the weak pixels, kept on a typed stack (each
 * pixel enters it once, when it is marked). Only the few weak pixels between the levels (a
 * stroke's anti-aliased edge) are looked around, not every seed.
 */
function growInk(image: GrayImage, mask: Uint8Array, seed: number, weak: number): void {
  const { data, width, height } = image;
  for (let i = 0; i < mask.length; i++) if (data[i]! <= seed) mask[i] = 1;
  const stack = new Int32Array(mask.length);
  let top = 0;
  /** The neighbourhood of pixel (x, y), clipped to the image: [x0, x1] × [y0, y1]. */
  const around = (x: number, y: number) => [x > 0 ? x - 1 : x, x + 1 < width ? x + 1 : x, y > 0 ? y - 1 : y, y + 1 < height ? y + 1 : y] as const;
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i++) {
      const g = data[i]!;
      if (g <= seed || g > weak || mask[i]) continue;
      const [x0, x1, y0, y1] = around(x, y);
      let touches = false;
      for (let ny = y0; ny <= y1 && !touches; ny++) for (let j = ny * width + x0; j <= ny * width + x1; j++) if (mask[j]) touches = true;
      if (touches) {
        mask[i] = 1;
        stack[top++] = i;
      }
    }
  }
  while (top) {
    const i = stack[--top]!;
    const x = i % width;
    const [x0, x1, y0, y1] = around(x, (i - x) / width);
    for (let ny = y0; ny <= y1; ny++) {
      for (let j = ny * width + x0; j <= ny * width + x1; j++) {
        if (!mask[j] && data[j]! <= weak) {
          mask[j] = 1;
          stack[top++] = j;
        }
      }
    }
  }
}
