/**
 * Handwriting-like training samples for the strokes classifier: every class typeset by MathJax in
 * each font, thinned and traced into pen strokes, then distorted many times (slant, rotation,
 * elastic warp, per-stroke nudges, wobble), drawn with a random pen width through the strokes
 * front end's own canvas and cropped by the shared normaliseCrop.
 *
 *   npx tsx models/training/strokes-generate.ts [out-prefix]
 * @default out-prefix models/training/data/strokes
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { normaliseCrop } from '../../worker/engine/math/image/normalise.js';
import { SYMBOL_CLASSES } from '../../worker/engine/math/image/vocabulary.js';
import { CANVAS_EM_PX } from '../../worker/engine/math/strokes/raster.js';
import { paintStrokeGroups } from '../../worker/engine/math/strokes/raster.js';
import type { Stroke } from '../../worker/engine/math/types.js';
import { seededRandom } from './augment.js';
import { CropWriter } from './dataset.js';
import { allRecipes } from './recipes.js';
import { MATHJAX_FONTS, type MathJaxFontName } from './render-mathjax.js';
import { distortStrokes } from './strokes-distort.js';
import { strokesFromTex } from './strokes-render.js';

/** Samples per class and font, spread over the class's recipes. */
const SAMPLES_PER_CLASS_AND_FONT = Number(process.env.SAMPLES ?? 32);
/** Render size for tracing: large enough that thinning keeps the shape of small glyphs. */
const TRACE_EM_PX = 64;
/** Pen diameter on the canvas, drawn uniformly: a fine liner to a marker at the canvas em. */
const PEN_PX_RANGE = [1.8, 4.8] as const;
/** The canvas em as inference sees it: estimated from the writing, so off by this factor either way. */
const CANVAS_SCALE_RANGE = [0.75, 1.35] as const;
const SEED = 7_240_611;

const out = process.argv[2] ?? 'models/training/data/strokes';
const fonts = Object.keys(MATHJAX_FONTS) as MathJaxFontName[];
const random = seededRandom(SEED);
const uniform = ([low, high]: readonly [number, number]) => low + (high - low) * random();
const writer = new CropWriter();
const untraceable: string[] = [];
const started = Date.now();

for (const [source, font] of fonts.entries()) {
  for (const { label, recipes } of allRecipes()) {
    const traced: Stroke[][] = [];
    for (const tex of recipes) {
      const strokes = await strokesFromTex(tex, font, TRACE_EM_PX).catch(() => []);
      if (strokes.length) traced.push(strokes);
      else untraceable.push(`${font} ${tex}`);
    }
    if (!traced.length) continue;
    for (let k = 0; k < SAMPLES_PER_CLASS_AND_FONT; k++) {
      const strokes = distortStrokes(traced[k % traced.length], random, { unit: TRACE_EM_PX, strength: uniform([0.4, 1.3]) });
      const emPx = CANVAS_EM_PX * uniform(CANVAS_SCALE_RANGE);
      const canvas = paintStrokeGroups([strokes], emPx / TRACE_EM_PX, uniform(PEN_PX_RANGE));
      const [symbol] = canvas.map.components;
      writer.add(normaliseCrop(canvas.map, [symbol.id], symbol.box, emPx), label, source);
    }
  }
  console.log(`${font}: ${writer.count} samples so far, ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

await mkdir(dirname(out), { recursive: true });
await writer.write(out, { classes: SYMBOL_CLASSES, sources: fonts, seed: SEED, samplesPerClassAndFont: SAMPLES_PER_CLASS_AND_FONT, penPxRange: PEN_PX_RANGE, canvasScaleRange: CANVAS_SCALE_RANGE, untraceable });
console.log(`wrote ${writer.count} samples to ${out}.bin in ${((Date.now() - started) / 1000).toFixed(0)} s; untraceable renders: ${untraceable.length}`);
