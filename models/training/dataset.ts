import { writeFile } from 'node:fs/promises';
import type { GrayImage } from '../../worker/engine/math/types.js';
import { binarise } from '../../worker/engine/math/image/binarise.js';
import { connectedComponents } from '../../worker/engine/math/image/components.js';
import { mergeComponents } from '../../worker/engine/math/image/merge.js';
import { CROP_SIZE, FEATURE_COUNT, normaliseCrop, type NormalisedCrop } from '../../worker/engine/math/image/normalise.js';

/**
 * Training crops go through exactly the inference pipeline (binarise → components → merge →
 * normalise). A render holds one symbol, so every group is part of it; more than one group means
 * the merge step would split this symbol at inference too, which the statistics report.
 */
export function cropOfSingleSymbol(image: GrayImage, emPx: number): { crop: NormalisedCrop; groups: number } | null {
  const map = connectedComponents(binarise(image));
  const groups = mergeComponents(map);
  if (!groups.length) return null;
  const ids = groups.flatMap((g) => g.parts.map((c) => c.id));
  const box = groups
    .map((g) => g.box)
    .reduce((a, b) => ({ x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) }));
  return { crop: normaliseCrop(map, ids, box, emPx), groups: groups.length };
}

/** Greyscale from resvg's RGBA rendered on white. */
export function grayFromRgba(rgba: Uint8Array, width: number, height: number): GrayImage {
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = Math.round(0.299 * rgba[4 * i] + 0.587 * rgba[4 * i + 1] + 0.114 * rgba[4 * i + 2]);
  return { data, width, height };
}

/**
 * Crops collected in memory, written as `<path>.bin` — uint8 crops (N × CROP_SIZE²), float32
 * features (N × FEATURE_COUNT), uint16 labels, uint8 source ids, each block little-endian and
 * back to back — and `<path>.json` with the class list, source names, counts and statistics.
 */
export class CropWriter {
  private readonly crops: Uint8Array[] = [];
  private readonly features: Float32Array[] = [];
  private readonly labels: number[] = [];
  private readonly sources: number[] = [];

  add(crop: NormalisedCrop, label: number, source: number): void {
    this.crops.push(Uint8Array.from(crop.pixels, (v) => Math.round(v * 255)));
    this.features.push(crop.features);
    this.labels.push(label);
    this.sources.push(source);
  }

  get count(): number {
    return this.labels.length;
  }

  async write(path: string, meta: { classes: readonly string[]; sources: readonly string[]; [key: string]: unknown }): Promise<void> {
    const n = this.count;
    const crops = Buffer.concat(this.crops);
    const features = Buffer.from(new Float32Array(this.features.flatMap((f) => [...f])).buffer);
    const labels = Buffer.from(Uint16Array.from(this.labels).buffer);
    const sources = Buffer.from(Uint8Array.from(this.sources));
    await writeFile(`${path}.bin`, Buffer.concat([crops, features, labels, sources]));
    await writeFile(`${path}.json`, JSON.stringify({ count: n, cropSize: CROP_SIZE, featureCount: FEATURE_COUNT, ...meta }, null, 1));
  }
}
