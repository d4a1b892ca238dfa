import { writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SYMBOL_CLASSES } from '../../worker/engine/math/image/vocabulary.js';
import { strokesBox } from '../../worker/engine/math/strokes/geometry.js';
import { SYMBOL_FEATURE_COUNT, symbolFeatures, trajectory, TRAJECTORY_CHANNELS, TRAJECTORY_POINTS } from '../../worker/engine/math/strokes/trajectory.js';
import type { Stroke } from '../../worker/engine/math/types.js';
import type { Random } from './augment.js';
import { distortStrokes } from './strokes-distort.js';

/**
 * One real symbol drawing → the classifier input the strokes front end would make of it
 * (trajectory.ts). The data sets keep no size relative to the writing around a symbol, so each
 * class is placed at its typical height in em (typeset heights from the image classifier's labels;
 * delimiters and the radical at the size a hand writes them beside a letter), jittered.
 */

/** The em in the units strokes are placed in. */
const EM = 100;
/** How far a writer's symbol height strays from the class's typical height (factor, either way). */
const HEIGHT_JITTER = 1.25;
/** Classes a hand writes about one line high, though typeset ones stretch. */
const HANDWRITTEN_HEIGHT_EM: Record<string, number> = {
  '(': 1,
  ')': 1,
  '[': 1,
  ']': 1,
  '\\{': 1,
  '\\}': 1,
  '|': 1,
  '\\|': 1,
  '\\langle': 1,
  '\\rangle': 1,
  '\\sqrt': 1,
  '/': 0.9,
  '\\sum': 1.1,
  '\\prod': 1.1,
  '\\int': 1.3,
  '\\oint': 1.3,
  '\\bigcup': 1,
  '\\bigcap': 1,
};

const symbolLabels = JSON.parse(readFileSync(fileURLToPath(new URL('../math-symbols.labels.json', import.meta.url)), 'utf8')) as {
  classes: string[];
  typicalHeightEm: number[];
};
/** Typical height in em of every SYMBOL_CLASSES entry. */
export const TYPICAL_HEIGHT_EM: readonly number[] = SYMBOL_CLASSES.map(
  (c) => HANDWRITTEN_HEIGHT_EM[c] ?? symbolLabels.typicalHeightEm[symbolLabels.classes.indexOf(c)] ?? 0.7,
);

export interface SampleOptions {
  /** 0 takes the strokes as they are (evaluation); above 0 warps them as strokes-distort does. */
  distortion: number;
  /** Size jitter, warp and stroke-order changes are drawn from this; none when absent. */
  random?: Random;
}

export interface TrajectorySample {
  points: Float32Array;
  features: Float32Array;
}

/** The strokes placed at their size: typical height × jitter at `em` units per em, top-left at 0. */
export function scaleToEm(strokes: readonly Stroke[], label: number, em: number, jitter = 1): Stroke[] {
  const box = strokesBox(strokes);
  const width = box.x1 - box.x0;
  const height = box.y1 - box.y0;
  const target = TYPICAL_HEIGHT_EM[label] * em * jitter;
  // A flat symbol (a tilde, an arrow drawn flatter than the font's) keeps its width under 3 em; a tap stays a tap.
  const scale = Math.min(height > 0 ? target / height : Infinity, width > 0 ? (3 * em) / width : Infinity);
  const s = Number.isFinite(scale) ? scale : 1;
  return strokes.map((k) => ({ x: k.x.map((v) => (v - box.x0) * s), y: k.y.map((v) => (v - box.y0) * s) }));
}

/**
 * Writers differ in stroke order and direction as much as in shape: a copy sometimes has one
 * stroke drawn the other way, or two strokes swapped.
 */
function reorder(strokes: Stroke[], random: Random): Stroke[] {
  const out = [...strokes];
  if (out.length > 1 && random() < 0.15) {
    const i = Math.floor(random() * out.length);
    const j = Math.floor(random() * out.length);
    [out[i], out[j]] = [out[j], out[i]];
  }
  if (random() < 0.1) {
    const i = Math.floor(random() * out.length);
    out[i] = { x: [...out[i].x].reverse(), y: [...out[i].y].reverse() };
  }
  return out;
}

export function sampleOfDrawing(strokes: readonly Stroke[], label: number, opts: SampleOptions): TrajectorySample {
  const { random } = opts;
  const jitter = random ? Math.exp(Math.log(HEIGHT_JITTER) * (2 * random() - 1)) : 1;
  let placed = scaleToEm(strokes, label, EM, jitter);
  if (opts.distortion > 0 && random) placed = reorder(distortStrokes(placed, random, { unit: EM, strength: opts.distortion * random() }), random);
  // Half the samples hide the size, so the model also reads before the em is estimated.
  const known = !random || random() < 0.5;
  return { points: trajectory(placed), features: symbolFeatures(strokesBox(placed), EM, known) };
}

/**
 * Samples collected in memory, written as `<path>.bin` — float32 points (N × POINTS × CHANNELS),
 * float32 features (N × FEATURES), uint16 labels, uint8 source ids — and `<path>.json`.
 */
export class TrajectoryWriter {
  private readonly samples: TrajectorySample[] = [];
  private readonly labels: number[] = [];
  private readonly sources: number[] = [];

  add(sample: TrajectorySample, label: number, source: number): void {
    this.samples.push(sample);
    this.labels.push(label);
    this.sources.push(source);
  }

  get count(): number {
    return this.labels.length;
  }

  async write(path: string, meta: Record<string, unknown>): Promise<void> {
    const points = new Float32Array(this.count * TRAJECTORY_POINTS * TRAJECTORY_CHANNELS);
    const features = new Float32Array(this.count * SYMBOL_FEATURE_COUNT);
    this.samples.forEach((s, i) => {
      points.set(s.points, i * TRAJECTORY_POINTS * TRAJECTORY_CHANNELS);
      features.set(s.features, i * SYMBOL_FEATURE_COUNT);
    });
    const blocks = [
      Buffer.from(points.buffer),
      Buffer.from(features.buffer),
      Buffer.from(Uint16Array.from(this.labels).buffer),
      Buffer.from(Uint8Array.from(this.sources)),
    ];
    await writeFile(`${path}.bin`, Buffer.concat(blocks));
    await writeFile(
      `${path}.json`,
      JSON.stringify({ count: this.count, points: TRAJECTORY_POINTS, channels: TRAJECTORY_CHANNELS, featureCount: SYMBOL_FEATURE_COUNT, ...meta }, null, 1),
    );
  }
}
