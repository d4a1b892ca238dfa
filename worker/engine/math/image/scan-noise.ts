import type { GrayImage } from '../types.js';

/**
 * A scanner's noise, measured so that binarisation can set its levels above it. A clean render's
 * paper is one grey; a scan's paper is grainy (sensor noise, σ 10–20 grey levels) and dusty, and
 * its strokes are softened. Otsu's threshold on a small crop of such a page lies close to the
 * paper, so that grain and dust binarise as ink and every speck becomes a symbol.
 */

/** Paper noise (σ in grey levels) from which an image is read as a scan; a clean render has 0. */
export const SCAN_NOISE_SIGMA = 4;

/** A scan's paper: its grey and the standard deviation of its noise, in grey levels. */
export interface ScanNoise {
  paper: number;
  sigma: number;
}

/**
 * The paper's grey and the standard deviation of its noise, from the pixels lighter than `threshold`
 * (Otsu's): their median is the paper, and a quarter of Gaussian noise lies more than 0.674 σ below
 * it. Noise clipped at white leaves the median at white and the lower quartile where it was. A
 * clean render's paper is one grey with a few anti-aliased edge pixels: σ 0.
 */
export function paperNoise(image: GrayImage, threshold: number): ScanNoise {
  return paperNoiseOf(greyCounts(image.data), threshold);
}

/** paperNoise of the image whose grey levels `counts` counts (greyCounts). */
export function paperNoiseOf(counts: Uint32Array, threshold: number): ScanNoise {
  const light = levelsIn(counts, Math.floor(threshold) + 1, 255);
  if (!light.total) return { paper: 255, sigma: 0 };
  const paper = greyQuantile(light, 0.5);
  return { paper, sigma: (paper - greyQuantile(light, 0.25)) / 0.6745 };
}

/**
 * A 3×3 binomial blur. Gaussian noise drops to 0.375 σ and a one-pixel speck of dust to a quarter of
 * its depth, while a 2×2 dot (a `\cdot` or an i's tittle at 150 dpi) keeps more than half of its.
 */
export function smoothed(image: GrayImage): GrayImage {
  const { data, width, height } = image;
  const rows = new Uint16Array(data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      rows[i] = data[x > 0 ? i - 1 : i] + 2 * data[i] + data[x + 1 < width ? i + 1 : i];
    }
  }
  const out = new Uint8Array(data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      out[i] = Math.round((rows[y > 0 ? i - width : i] + 2 * rows[i] + rows[y + 1 < height ? i + width : i]) / 16);
    }
  }
  return { data: out, width, height };
}

/** Share of the ink pixels whose grey is taken as the ink's: its darkest, not one stray pixel. */
const INK_QUANTILE = 0.02;

/** The grey of a scan's ink: the INK_QUANTILE darkest of its pixels at or below `atMost`; 0 when none are. */
export function inkGrey(image: GrayImage, atMost: number): number {
  const dark = levelsIn(greyCounts(image.data), 0, Math.floor(atMost));
  return dark.total ? greyQuantile(dark, INK_QUANTILE) : 0;
}

interface GreyHistogram {
  counts: Uint32Array;
  total: number;
}

/** How many pixels have each grey level. */
export function greyCounts(data: Uint8Array): Uint32Array {
  // Four tallies, summed at the end: most pixels are paper, and one tally would have each count
  // wait on the one before it.
  const tallies = new Uint32Array(1024);
  const n = data.length - (data.length % 4);
  for (let i = 0; i < n; i += 4) {
    tallies[data[i]!]!++;
    tallies[256 + data[i + 1]!]!++;
    tallies[512 + data[i + 2]!]!++;
    tallies[768 + data[i + 3]!]!++;
  }
  for (let i = n; i < data.length; i++) tallies[data[i]!]!++;
  const counts = new Uint32Array(256);
  for (let g = 0; g < 256; g++) counts[g] = tallies[g]! + tallies[256 + g]! + tallies[512 + g]! + tallies[768 + g]!;
  return counts;
}

/** The part of a histogram (greyCounts) from grey `from` to grey `to`, both included. */
function levelsIn(all: Uint32Array, from: number, to: number): GreyHistogram {
  const counts = new Uint32Array(256);
  let total = 0;
  for (let g = Math.max(0, from); g <= Math.min(255, to); g++) {
    counts[g] = all[g]!;
    total += all[g]!;
  }
  return { counts, total };
}

/** The least grey below or at which more than `share` of a non-empty histogram's pixels lie. */
function greyQuantile({ counts, total }: GreyHistogram, share: number): number {
  let seen = 0;
  for (let g = 0; g < 256; g++) {
    seen += counts[g]!;
    if (seen > share * total) return g;
  }
  return 255;
}
