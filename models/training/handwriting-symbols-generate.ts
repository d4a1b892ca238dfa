/**
 * Training crops for the handwriting image classifier (models/math-handwriting.onnx): the real pen
 * strokes of strokes-real.ts (Detexify and UNIPEN, folds 1–9) drawn as ink pictures
 * (handwriting-ink.ts) with varied size, pen width, ink, blur and noise, then cropped exactly as
 * the image pipeline crops a component (dataset.ts). Fold 0, the held-out writers, is drawn once
 * each, unwarped, into `<prefix>-test` for the held-out accuracy; it is never trained on.
 *
 *   npx tsx models/training/handwriting-symbols-generate.ts [out-prefix]
 * @default out-prefix models/training/data/handwriting-symbols
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SYMBOL_CLASSES } from '../../worker/engine/math/image/vocabulary.js';
import type { Stroke } from '../../worker/engine/math/types.js';
import { addNoise, blur, seededRandom, shuffle, type Random } from './augment.js';
import { CropWriter, cropOfSingleSymbol } from './dataset.js';
import { inkImage } from './handwriting-ink.js';
import { distortStrokes } from './strokes-distort.js';
import { scaleToEm } from './strokes-real-samples.js';
import { HELD_OUT_FOLD, readRealSamples, type RealSample } from './strokes-real.js';

/** Crops per class: a large class is sampled down to this, a small one drawn again, warped, up to it. */
const PER_CLASS = Number(process.env.PER_CLASS ?? 200);
const MAX_COPIES = Number(process.env.MAX_COPIES ?? 6);
/** Share of training copies stretched sideways (0.6–1.8 times as wide: a flat `x`, a narrow `1`); 0 by default. */
const STRETCH = Number(process.env.STRETCH ?? 0);
const STRETCH_RANGE = [0.6, 1.8] as const;
/** More rounds of data (another seed, no held-out set): `SEED_OFFSET=1 HELD_OUT=0`. */
const SEED_OFFSET = Number(process.env.SEED_OFFSET ?? 0);
const WRITE_HELD_OUT = process.env.HELD_OUT !== '0';
const DISTORTION = 0.5;
/** Pixels per em, log-uniform: a phone photo of a page up to a close-up of a whiteboard. */
const EM_PX_RANGE = [18, 80] as const;
/** Pen diameter as a fraction of the em: a fine pen to a marker. */
const PEN_EM_RANGE = [0.035, 0.12] as const;
const HEIGHT_JITTER = 1.25;
const SEED = 2_026_1127 + 1000 * SEED_OFFSET;
const SOURCES = ['unipen', 'detexify'];

const out = process.argv[2] ?? 'models/training/data/handwriting-symbols';
const random = seededRandom(SEED);
const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(0);
const between = (range: readonly [number, number], r: Random) => range[0] * (range[1] / range[0]) ** r();

/** One drawing as the crop the image pipeline would make of its picture; null if nothing is left of it. */
function cropOf(strokes: readonly Stroke[], label: number, r: Random, distortion: number, degrade: boolean, stretch = 0) {
  const emPx = between(EM_PX_RANGE, r);
  const jitter = Math.exp(Math.log(HEIGHT_JITTER) * (2 * r() - 1));
  let placed = scaleToEm(strokes, label, emPx, jitter);
  if (distortion > 0) placed = distortStrokes(placed, r, { unit: emPx, strength: distortion * r() });
  if (stretch > 0 && r() < stretch) {
    const wide = between(STRETCH_RANGE, r);
    placed = placed.map((k) => ({ x: k.x.map((v) => v * wide), y: k.y }));
  }
  const penPx = Math.max(1.2, emPx * between(PEN_EM_RANGE, r));
  let image = inkImage(placed, { penPx, ink: Math.round(r() * 100), paper: Math.round(215 + r() * 40) });
  if (degrade && r() < 0.5) image = blur(image, 0.3 + r() * 0.9);
  if (degrade && r() < 0.5) image = addNoise(image, r() * 12, 0, r);
  return cropOfSingleSymbol(image, emPx);
}

const all = await readRealSamples();
console.log(`read ${all.length} real samples in ${seconds()} s`);
const byClass: RealSample[][] = SYMBOL_CLASSES.map(() => []);
const test = new CropWriter();
const testRandom = seededRandom(SEED + 1);
const splitByMerge: Record<string, number> = {};
for (const s of all) {
  if (s.fold !== HELD_OUT_FOLD) {
    byClass[s.label].push(s);
    continue;
  }
  if (!WRITE_HELD_OUT) continue;
  const result = cropOf(s.strokes, s.label, testRandom, 0, true);
  if (result) test.add(result.crop, s.label, SOURCES.indexOf(s.source));
}

const train = new CropWriter();
/** Each training crop's writer fold (1–9), so a trainer can hold writers apart for validation. */
const folds: number[] = [];
const missing: string[] = [];
for (const [label, samples] of byClass.entries()) {
  if (!samples.length) {
    missing.push(SYMBOL_CLASSES[label]);
    continue;
  }
  shuffle(samples, random);
  const count = Math.min(PER_CLASS, samples.length * MAX_COPIES);
  for (let k = 0; k < count; k++) {
    const s = samples[k % samples.length];
    const result = cropOf(s.strokes, label, random, k < samples.length ? DISTORTION / 2 : DISTORTION, true, STRETCH);
    if (!result) continue;
    folds.push(s.fold);
    if (result.groups > 1) splitByMerge[SYMBOL_CLASSES[label]] = (splitByMerge[SYMBOL_CLASSES[label]] ?? 0) + 1;
    train.add(result.crop, label, SOURCES.indexOf(s.source));
  }
  if (label % 20 === 19) console.log(`class ${label + 1}/${SYMBOL_CLASSES.length}: ${train.count} crops, ${seconds()} s`);
}

await mkdir(dirname(out), { recursive: true });
const meta = {
  classes: SYMBOL_CLASSES,
  sources: SOURCES,
  seed: SEED,
  perClass: PER_CLASS,
  stretch: STRETCH,
  heldOutFold: HELD_OUT_FOLD,
  missing,
  splitByMerge,
};
await train.write(out, meta);
await writeFile(`${out}.folds`, Uint8Array.from(folds));
if (WRITE_HELD_OUT) await test.write(`${out}-test`, meta);
console.log(`wrote ${train.count} training and ${test.count} held-out crops in ${seconds()} s; classes without real drawings: ${missing.join(' ')}`);
