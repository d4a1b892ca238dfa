/**
 * Training crops for the strokes classifier from real pen strokes (strokes-real.ts: Detexify and
 * UNIPEN, folds 1–9; fold 0 is held out for evaluation), plus traced-font ink (strokes-render.ts)
 * for the classes no real set has, as the on-line input the front end makes (strokes-real-samples.ts).
 *
 *   npx tsx models/training/strokes-real-generate.ts [out-prefix]
 * @default out-prefix models/training/data/strokes-real (and <prefix>-test for fold 0)
 * Environment: PER_CLASS, MAX_COPIES; VALIDATION_FOLD=k also writes fold k unwarped to <prefix>-val
 * and leaves it out of training (for choosing among networks on training writers).
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SYMBOL_CLASSES } from '../../worker/engine/math/image/vocabulary.js';
import { seededRandom, shuffle } from './augment.js';
import { MATHJAX_FONTS, type MathJaxFontName } from './render-mathjax.js';
import { recipesFor } from './recipes.js';
import { sampleOfDrawing, TrajectoryWriter } from './strokes-real-samples.js';
import { HELD_OUT_FOLD, readRealSamples, type RealSample } from './strokes-real.js';
import { strokesFromTex } from './strokes-render.js';

/** Crops per class: a large class is sampled down to this, a small one drawn again, warped, up to it. */
const PER_CLASS = Number(process.env.PER_CLASS ?? 360);
/** At most this many warped copies of one drawing. */
const MAX_COPIES = Number(process.env.MAX_COPIES ?? 8);
/** Warp strength of the copies (strokes-distort.ts; 1 is as strong as the font tracing uses). */
const DISTORTION = 0.6;
const SYNTHETIC_PER_FONT = 40;
const SEED = 1_704_2026;
const SOURCES = ['unipen', 'detexify', 'traced-font'];

const out = process.argv[2] ?? 'models/training/data/strokes-real';
const random = seededRandom(SEED);
const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(0);

/** A training fold kept apart, unwarped, as a validation set for choosing among networks (never fold 0). */
const VALIDATION_FOLD = process.env.VALIDATION_FOLD === undefined ? undefined : Number(process.env.VALIDATION_FOLD);
if (VALIDATION_FOLD === HELD_OUT_FOLD) throw new Error('the validation fold must be a training fold');

const all = await readRealSamples();
console.log(`read ${all.length} real samples in ${seconds()} s`);
const byClass: RealSample[][] = SYMBOL_CLASSES.map(() => []);
const test = new TrajectoryWriter();
const validation = new TrajectoryWriter();
for (const s of all) {
  if (s.fold === HELD_OUT_FOLD) test.add(sampleOfDrawing(s.strokes, s.label, { distortion: 0 }), s.label, SOURCES.indexOf(s.source));
  else if (s.fold === VALIDATION_FOLD) validation.add(sampleOfDrawing(s.strokes, s.label, { distortion: 0 }), s.label, SOURCES.indexOf(s.source));
  else byClass[s.label].push(s);
}

const train = new TrajectoryWriter();
const traced: string[] = [];
for (const [label, samples] of byClass.entries()) {
  if (samples.length === 0) {
    // No real drawing of this class: the font tracing stands in (strokes-generate.ts's recipe).
    for (const [font] of Object.entries(MATHJAX_FONTS) as [MathJaxFontName, unknown][]) {
      const renders = (await Promise.all(recipesFor(SYMBOL_CLASSES[label]).map((tex) => strokesFromTex(tex, font, 64).catch(() => [])))).filter(
        (r) => r.length,
      );
      for (let k = 0; k < SYNTHETIC_PER_FONT && renders.length; k++)
        train.add(sampleOfDrawing(renders[k % renders.length], label, { distortion: 1.3, random }), label, 2);
    }
    traced.push(SYMBOL_CLASSES[label]);
    continue;
  }
  // Shuffle, then take each drawing once before any is repeated.
  shuffle(samples, random);
  const count = Math.min(PER_CLASS, samples.length * MAX_COPIES);
  for (let k = 0; k < count; k++) {
    const s = samples[k % samples.length];
    train.add(sampleOfDrawing(s.strokes, label, { distortion: k < samples.length ? DISTORTION / 2 : DISTORTION, random }), label, SOURCES.indexOf(s.source));
  }
}

await mkdir(dirname(out), { recursive: true });
const meta = { classes: SYMBOL_CLASSES, sources: SOURCES, seed: SEED, perClass: PER_CLASS, heldOutFold: HELD_OUT_FOLD, traced };
await train.write(out, meta);
await test.write(`${out}-test`, meta);
if (VALIDATION_FOLD !== undefined) await validation.write(`${out}-val`, { ...meta, validationFold: VALIDATION_FOLD });
console.log(`wrote ${train.count} training and ${test.count} held-out samples in ${seconds()} s; traced-font classes: ${traced.join(' ')}`);
