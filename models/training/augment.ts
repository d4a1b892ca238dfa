import type { GrayImage } from '../../worker/engine/math/types.js';

/**
 * Degradations applied to clean renders so the classifier meets the blur, noise and stroke weight
 * of scans and screenshots in training. All randomness comes from the seeded generator handed in,
 * so a run reproduces byte for byte.
 */

export type Random = () => number;

/** Shuffles `items` in place (Fisher–Yates), drawing from `random`; returns them. */
export function shuffle<T>(items: T[], random: Random): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** mulberry32: small, fast and good enough for augmentation choices. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(random: Random): number {
  return Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
}

/** Separable Gaussian blur of standard deviation `sigma` pixels. */
export function blur(image: GrayImage, sigma: number): GrayImage {
  const radius = Math.ceil(sigma * 2.5);
  const kernel = Array.from({ length: 2 * radius + 1 }, (_, i) => Math.exp(-((i - radius) ** 2) / (2 * sigma * sigma)));
  const norm = kernel.reduce((a, b) => a + b, 0);
  const { width, height } = image;
  const pass = (src: Float32Array, dx: number, dy: number): Float32Array => {
    const out = new Float32Array(src.length);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let sum = 0;
        for (let k = -radius; k <= radius; k++) {
          const sx = Math.min(width - 1, Math.max(0, x + k * dx));
          const sy = Math.min(height - 1, Math.max(0, y + k * dy));
          sum += kernel[k + radius] * src[sy * width + sx];
        }
        out[y * width + x] = sum / norm;
      }
    }
    return out;
  };
  const blurred = pass(pass(Float32Array.from(image.data), 1, 0), 0, 1);
  return { width, height, data: Uint8Array.from(blurred, (v) => Math.round(v)) };
}

/** Grey-level minimum (thicker ink, `grow` true) or maximum (thinner ink) over each 3×3 neighbourhood. */
export function changeStroke(image: GrayImage, grow: boolean): GrayImage {
  const { width, height, data } = image;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let value = data[y * width + x];
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const sx = x + dx;
          const sy = y + dy;
          if (sx < 0 || sy < 0 || sx >= width || sy >= height) continue;
          const v = data[sy * width + sx];
          value = grow ? Math.min(value, v) : Math.max(value, v);
        }
      }
      out[y * width + x] = value;
    }
  }
  return { width, height, data: out };
}

/** Additive Gaussian noise of `sigma` grey levels plus a sprinkle of isolated dark specks. */
export function addNoise(image: GrayImage, sigma: number, speckRate: number, random: Random): GrayImage {
  const data = Uint8Array.from(image.data, (v) => Math.max(0, Math.min(255, Math.round(v + sigma * gaussian(random)))));
  for (let i = 0; i < data.length; i++) if (random() < speckRate) data[i] = Math.round(random() * 96);
  return { width: image.width, height: image.height, data };
}

/** A random mix of the degradations above, mild enough that a person still reads the symbol. */
export function degrade(image: GrayImage, emPx: number, random: Random): GrayImage {
  let out = image;
  // Thinning erases strokes of small glyphs outright; only large renders can afford it.
  const stroke = random();
  if (stroke < 0.15) out = changeStroke(out, true);
  else if (stroke < 0.25 && emPx >= 32) out = changeStroke(out, false);
  if (random() < 0.5) out = blur(out, 0.3 + random() * 0.7);
  if (random() < 0.5) out = addNoise(out, random() * 14, random() < 0.3 ? 0.002 : 0, random);
  return out;
}

/**
 * A flatbed scanner's take on a render, as bench/scanned-renders.ts `noisySkewed` makes the noisy
 * scans the evaluation reads (less the turn, which the renders already have): softened by a blur
 * of σ 0.4–1.0 px, then Gaussian sensor noise of σ 18 grey levels and sparse dust specks. Blur
 * thickens strokes and takes the foot serif off a `1`; crops of it teach the classifier the shapes
 * the scan path of `binarise` gives.
 */
export function scanned(image: GrayImage, random: Random): GrayImage {
  return addNoise(blur(image, 0.4 + random() * 0.6), 18, 0.0015, random);
}
