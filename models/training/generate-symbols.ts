/**
 * Renders every classifier class with the MathJax 4 fonts through resvg, degrades the renders,
 * and writes the training crops: `npx tsx models/training/generate-symbols.ts [out-prefix]`.
 * @default out-prefix models/training/data/symbols
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { IMAGE_CLASSES } from '../../worker/engine/math/image/vocabulary.js';
import { degrade, scanned, seededRandom } from './augment.js';
import { CropWriter, cropOfSingleSymbol, grayFromRgba } from './dataset.js';
import { allRecipes } from './recipes.js';
import { MATHJAX_FONTS, renderTexSvg, type MathJaxFontName } from './render-mathjax.js';

/** Samples per class and font, spread over the class's recipes. */
const SAMPLES_PER_CLASS_AND_FONT = Number(process.env.SAMPLES ?? 40);
/** Pixels per em, drawn log-uniformly: a 10 pt formula at 100 dpi up to 12 pt at 330 dpi. */
const EM_PX_RANGE = [14, 56] as const;
const MAX_ROTATION_DEG = 3;
/**
 * Share of renders degraded as a scanner would (augment.ts `scanned`) instead of by `degrade`'s
 * milder mix: 0 for the symbol crops, 1 for the scanned crops (`SCAN_SHARE=1 SAMPLES=16 … data/symbols-scan`),
 * which `train_symbols.py --scanned` adds. At 0 the crops are byte for byte those of before.
 */
const SCAN_SHARE = Number(process.env.SCAN_SHARE ?? 0);
/** The scanned crops draw their own renders. */
const SEED = SCAN_SHARE > 0 ? 20261128 : 20240917;

const out = process.argv[2] ?? 'models/training/data/symbols';
const fonts = Object.keys(MATHJAX_FONTS) as MathJaxFontName[];
const random = seededRandom(SEED);
const writer = new CropWriter();
/** Renders whose symbol the merge step left in several groups, per class: what inference would split. */
const splitRenders: Record<string, number> = {};
const started = Date.now();

for (const [source, font] of fonts.entries()) {
  for (const { label, token, recipes } of allRecipes(IMAGE_CLASSES)) {
    for (let k = 0; k < SAMPLES_PER_CLASS_AND_FONT; k++) {
      const tex = recipes[k % recipes.length];
      const emPx = EM_PX_RANGE[0] * (EM_PX_RANGE[1] / EM_PX_RANGE[0]) ** random();
      const rotateDeg = (random() * 2 - 1) * MAX_ROTATION_DEG;
      const svg = await renderTexSvg(tex, font, { emPx, rotateDeg });
      const rendered = new Resvg(svg, { background: 'white', font: { loadSystemFonts: false } }).render();
      const grey = grayFromRgba(rendered.pixels, rendered.width, rendered.height);
      const image = SCAN_SHARE > 0 && random() < SCAN_SHARE ? scanned(grey, random) : degrade(grey, emPx, random);
      const result = cropOfSingleSymbol(image, emPx);
      if (!result) continue;
      if (result.groups > 1) splitRenders[`${font} ${tex}`] = (splitRenders[`${font} ${tex}`] ?? 0) + 1;
      writer.add(result.crop, label, source);
    }
  }
  console.log(`${font}: ${writer.count} crops so far, ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

await mkdir(dirname(out), { recursive: true });
await writer.write(out, {
  classes: IMAGE_CLASSES,
  sources: fonts,
  seed: SEED,
  samplesPerClassAndFont: SAMPLES_PER_CLASS_AND_FONT,
  scanShare: SCAN_SHARE,
  emPxRange: EM_PX_RANGE,
  splitRenders,
});
console.log(
  `wrote ${writer.count} crops to ${out}.bin in ${((Date.now() - started) / 1000).toFixed(0)} s; renders split by the merge step: ${Object.keys(splitRenders).length}`,
);
