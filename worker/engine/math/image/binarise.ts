import type { GrayImage } from '../types.js';
import { inkGrey, paperNoise, SCAN_NOISE_SIGMA, type ScanNoise, smoothed } from './scan-noise.js';

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
  const histogram = new Float64Array(256);
  for (let i = 0; i < image.data.length; i++) histogram[image.data[i]]++;
  const total = image.data.length;
  let sumAll = 0;
  for (let g = 0; g < 256; g++) sumAll += g * histogram[g];
  let weightDark = 0;
  let sumDark = 0;
  let best = -1;
  let first = 127;
  let last = 127;
  for (let g = 0; g < 255; g++) {
    weightDark += histogram[g];
    if (weightDark === 0) continue;
    const weightLight = total - weightDark;
    if (weightLight === 0) break;
    sumDark += g * histogram[g];
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
  if (paperNoise(raw, otsuThreshold(raw)).sigma < SCAN_NOISE_SIGMA) return null;
  const image = smoothed(raw);
  return paperNoise(image, otsuThreshold(image));
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
  let darkest = 255;
  let lightest = 0;
  for (let i = 0; i < image.data.length; i++) {
    const g = image.data[i];
    if (g < darkest) darkest = g;
    if (g > lightest) lightest = g;
  }
  if (lightest - darkest >= MIN_CONTRAST) {
    const { seed, weak } = levels(image, lightest, otsuThreshold(image), noise);
    const stack: number[] = [];
    for (let i = 0; i < mask.length; i++) {
      if (image.data[i] <= seed) {
        mask[i] = 1;
        stack.push(i);
      }
    }
    const { width, height } = image;
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % width;
      const y = (i - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const j = ny * width + nx;
          if (!mask[j] && image.data[j] <= weak) {
            mask[j] = 1;
            stack.push(j);
          }
        }
      }
    }
  }
  return { data: mask, width: image.width, height: image.height };
}
