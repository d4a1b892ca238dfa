import type { Box, GrayImage } from '../types.js';
import type { Classification, SymbolClassifier } from './classifier.js';
import type { Component, ComponentMap } from './components.js';
import { normaliseCrop } from './normalise.js';
import { SLIVERS } from './split.js';

/**
 * A core is ink at least this share of the way from the paper to the blob's darkest grey: the
 * middle of a blurred stroke is, the blurred gap between two glyphs (about half as dark) is not.
 */
const CORE_SHARE = 0.5;
/** A core smaller than this many pixels is grain inside a stroke, not a glyph's own. */
const MIN_CORE_AREA = 4;
/**
 * Every piece of an accepted split must be recognised at least this surely (0.4–0.6 read the noisy
 * row alike; 0.5 best on two disjoint fifths of the corpus).
 */
const PIECE_SURE = 0.5;

/** Blobs of more cores than this are left whole: their ways of grouping the cores grow as 2^cores. */
const MAX_CORES = 6;
/** A blob read at least this surely as a whole is one glyph (pieces rarely beat it). */
const WHOLE_SURE = 0.9;

interface Split {
  component: Component;
  /** Per piece, its pixels (indices into the map). */
  pieces: number[][];
}

/** A blob's cores, left to right, and the runs of them to read as one piece. */
interface Candidate {
  component: Component;
  /** Per core, the blob's pixels nearest it. */
  regions: number[][];
  /** Every run of neighbouring cores short of all of them: [first, last]. */
  ranges: [number, number][];
}

/**
 * Glyphs a scanner's blur fused into one blob (an `m` and the `c` beside it, the `d` and `x` of a
 * `dx`), taken apart where the classifier says so. On a scan the gap between two glyphs blurs to
 * about half the ink's darkness, and binarisation, which must keep hairlines whole, takes it in.
 * A blob's cores are its pixels darker than CORE_SHARE of the way from the paper to its darkest
 * grey; each pixel goes to its nearest core through the blob. Runs of neighbouring cores (left to
 * right) are read as pieces, and the grouping into two or more pieces whose least sure piece is
 * surest is kept when that piece is sure (PIECE_SURE) and surer than the whole blob. A hairline
 * inside one glyph (the joins of an `m`) makes cores too; the whole then reads surer than its parts.
 *
 * `grey` is the image binarisation thresholded (the smoothed scan) and `paper` its paper grey.
 * Returns the map with each cut blob's pieces as components of their own.
 */
export async function splitAtDarkerCores(map: ComponentMap, grey: GrayImage, paper: number, classifier: SymbolClassifier): Promise<ComponentMap> {
  const candidates = map.components.flatMap((component): Candidate[] => {
    const regions = regionsOfCores(map, grey, paper, component);
    if (regions.length < 2 || regions.length > MAX_CORES) return [];
    const ranges: [number, number][] = [];
    for (let a = 0; a < regions.length; a++) for (let b = a; b < regions.length; b++) if (b - a < regions.length - 1) ranges.push([a, b]);
    return [{ component, regions, ranges }];
  });
  if (!candidates.length) return map;
  // The whole blobs first: most are one glyph with a hairline, read surely, and are not taken apart.
  const wholes = await classifier.classify(candidates.map(({ component }) => normaliseCrop(map, [component.id], component.box)));
  const unsure = candidates.flatMap((candidate, k) => (wholes[k]!.confidence < WHOLE_SURE ? [{ ...candidate, whole: wholes[k]! }] : []));
  const labels = await classifier.classify(unsure.flatMap(({ regions, ranges }) => ranges.map(([a, b]) => cropOfPixels(map, regions.slice(a, b + 1).flat()))));
  let at = 0;
  const kept: Split[] = [];
  for (const candidate of unsure) {
    const reads = labels.slice(at, at + candidate.ranges.length);
    at += candidate.ranges.length;
    const best = bestGrouping(candidate, reads);
    if (!best || best.sure < PIECE_SURE || best.sure <= candidate.whole.confidence) continue;
    const { regions, ranges } = candidate;
    kept.push({ component: candidate.component, pieces: best.pieces.map((k) => regions.slice(ranges[k]![0], ranges[k]![1] + 1).flat()) });
  }
  return kept.length ? relabelled(map, kept) : map;
}

/**
 * The grouping of the cores into two or more runs whose least sure read is surest (indices into
 * the candidate's ranges), runs read as slivers left out; undefined when there is none.
 */
function bestGrouping({ regions, ranges }: Candidate, reads: readonly Classification[]): { pieces: number[]; sure: number } | undefined {
  const rangeIndex = new Map(ranges.map(([a, b], k) => [`${a},${b}`, k]));
  // best[n]: the surest grouping of the first n cores into runs.
  const best: ({ pieces: number[]; sure: number } | undefined)[] = [{ pieces: [], sure: 1 }];
  for (let end = 1; end <= regions.length; end++) {
    for (let start = 0; start < end; start++) {
      const k = rangeIndex.get(`${start},${end - 1}`);
      const before = best[start];
      if (k === undefined || !before || SLIVERS.has(reads[k]!.latex)) continue;
      const sure = Math.min(before.sure, reads[k]!.confidence);
      if (!best[end] || sure > best[end]!.sure) best[end] = { pieces: [...before.pieces, k], sure };
    }
  }
  return best[regions.length];
}

/** The blob's pixels shared out among its cores, left to right; none when it has fewer than two cores. */
function regionsOfCores(map: ComponentMap, grey: GrayImage, paper: number, component: Component): number[][] {
  const { width, labels } = map;
  const { x0, y0, x1, y1 } = component.box;
  const boxWidth = x1 - x0;
  const local = (i: number) => (Math.floor(i / width) - y0) * boxWidth + (i % width) - x0;
  const inBlob = (i: number) => labels[i] === component.id;
  const pixels: number[] = [];
  let darkest = 255;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = y * width + x;
      if (!inBlob(i)) continue;
      pixels.push(i);
      darkest = Math.min(darkest, grey.data[i]!);
    }
  }
  const level = paper - CORE_SHARE * (paper - darkest);
  // Per pixel of the box: the core (1-based) it belongs to, 0 for none yet, -1 for a core too small to count.
  const owner = new Int32Array(boxWidth * (y1 - y0));
  const frontier: number[] = [];
  let cores = 0;
  for (const start of pixels) {
    if (owner[local(start)] !== 0 || grey.data[start]! > level) continue;
    owner[local(start)] = -1;
    const core = [start];
    for (let head = 0; head < core.length; head++) {
      for (const j of neighbours(map, core[head]!)) {
        if (!inBlob(j) || owner[local(j)] !== 0 || grey.data[j]! > level) continue;
        owner[local(j)] = -1;
        core.push(j);
      }
    }
    if (core.length < MIN_CORE_AREA) continue;
    cores++;
    for (const i of core) owner[local(i)] = cores;
    frontier.push(...core);
  }
  if (cores < 2) return [];
  // Every other pixel goes to the core nearest it through the blob (breadth-first from all cores at once).
  for (let head = 0; head < frontier.length; head++) {
    const i = frontier[head]!;
    for (const j of neighbours(map, i)) {
      if (!inBlob(j) || owner[local(j)]! > 0) continue;
      owner[local(j)] = owner[local(i)]!;
      frontier.push(j);
    }
  }
  const pieces: number[][] = Array.from({ length: cores }, () => []);
  for (const i of pixels) pieces[owner[local(i)]! - 1]!.push(i);
  const centreX = (region: number[]) => region.reduce((sum, i) => sum + (i % width), 0) / region.length;
  return pieces
    .map((region) => ({ region, x: centreX(region) }))
    .sort((p, q) => p.x - q.x)
    .map(({ region }) => region);
}

function neighbours({ width, height }: ComponentMap, i: number): number[] {
  const x = i % width;
  const y = (i - x) / width;
  const out: number[] = [];
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      const nx = x + dx;
      const ny = y + dy;
      if ((dx || dy) && nx >= 0 && ny >= 0 && nx < width && ny < height) out.push(ny * width + nx);
    }
  }
  return out;
}

function boxOf(width: number, pixels: readonly number[]): Box {
  const box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  for (const i of pixels) {
    const x = i % width;
    const y = (i - x) / width;
    box.x0 = Math.min(box.x0, x);
    box.y0 = Math.min(box.y0, y);
    box.x1 = Math.max(box.x1, x + 1);
    box.y1 = Math.max(box.y1, y + 1);
  }
  return box;
}

/** A piece's crop: its pixels alone, labelled on a copy of the map's labels. */
function cropOfPixels(map: ComponentMap, pixels: readonly number[]) {
  const labels = new Int32Array(map.labels.length);
  for (const i of pixels) labels[i] = 1;
  const box = boxOf(map.width, pixels);
  return normaliseCrop({ ...map, labels, components: [{ id: 1, box, area: pixels.length }] }, [1], box);
}

/** The map with each split component's pieces as new components (the first keeps the old id). */
function relabelled(map: ComponentMap, splits: readonly Split[]): ComponentMap {
  const labels = Int32Array.from(map.labels);
  const components = map.components.map((c) => ({ ...c, box: { ...c.box } }));
  for (const { component, pieces } of splits) {
    pieces.forEach((pixels, k) => {
      const id = k === 0 ? component.id : components.length + 1;
      for (const i of pixels) labels[i] = id;
      const piece = { id, box: boxOf(map.width, pixels), area: pixels.length };
      if (k === 0) components[component.id - 1] = piece;
      else components.push(piece);
    });
  }
  return { ...map, labels, components };
}
