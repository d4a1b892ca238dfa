/**
 * Crops of letter pairs the raster has fused into one blob (`\max`'s `ax`, `\cos`'s `os`, the `aH`
 * of `\text{NaHCO}_3` at 150 dpi): no class of the classifier, so train_symbols.py teaches it to be
 * unsure of them (a flat target), which lets `split.ts` cut such a blob instead of reading it as
 * one glyph (`\infty`, `\mathbf{m}`). `npx tsx models/training/generate-fused.ts [out-prefix]`
 * @default out-prefix models/training/data/fused
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { binarise } from '../../worker/engine/math/image/binarise.js';
import { connectedComponents } from '../../worker/engine/math/image/components.js';
import { mergeComponents } from '../../worker/engine/math/image/merge.js';
import { normaliseCrop } from '../../worker/engine/math/image/normalise.js';
import { degrade, seededRandom } from './augment.js';
import { CropWriter, grayFromRgba } from './dataset.js';
import { MATHJAX_FONTS, renderTexSvg, type MathJaxFontName } from './render-mathjax.js';

/** Words printed upright or italic in formulas: function names, chemistry, units, variables. */
const WORDS = [
  'max min sin cos tan cot sec csc log exp lim ker det rank arg sup inf deg dim gcd hom mod Var Cov Pr tr',
  'NaHCO MnO KMnO NaOH NaCl CaCO MgO CuSO FeCl ZnO HCl NH CO Ca Mg Cu Zn Fe Na Al Cl Br Mn Co Ni Pb Sn Ag Au Hg',
  'mol kg mm cm km Hz kJ Pa kPa eV ms ns rad sr lm lx Wb',
  'ab ax xy uv vw abc xyz mn pq rs uvw ABC XYZ PQ AB CD MN xn yn zn an bn cn',
].flatMap((line) => line.split(' '));
/** Pixels per em: where glyphs touch, from second-level scripts at 150 dpi to a 12 pt formula at 200 dpi. */
const EM_PX_RANGE = [10, 34] as const;
const PER_WORD_AND_FONT = Number(process.env.FUSED_SAMPLES ?? 24);
const SEED = 20261127;

const out = process.argv[2] ?? 'models/training/data/fused';
const fonts = Object.keys(MATHJAX_FONTS) as MathJaxFontName[];
const random = seededRandom(SEED);
const writer = new CropWriter();
const started = Date.now();

/** Adjacent letter pairs of every word (no i or j: their tittle is split by tittle-split.ts). */
const pairs = [...new Set(WORDS.flatMap((word) => [...word].slice(1).map((c, k) => word[k] + c)))].filter((pair) => !/[ij]/.test(pair));

for (const [source, font] of fonts.entries()) {
  for (const pair of pairs) {
    for (let k = 0; k < PER_WORD_AND_FONT; k++) {
      const emPx = EM_PX_RANGE[0] * (EM_PX_RANGE[1] / EM_PX_RANGE[0]) ** random();
      // Upright or italic, with the pair drawn together by up to 2 mu so that thin gaps close too.
      const kern = `\\mkern-${(random() * 2).toFixed(1)}mu`;
      const tex = random() < 0.6 ? `\\mathrm{${pair[0]}}${kern}\\mathrm{${pair[1]}}` : `${pair[0]}${kern}${pair[1]}`;
      const svg = await renderTexSvg(tex, font, { emPx, rotateDeg: (random() * 2 - 1) * 1.5 });
      const rendered = new Resvg(svg, { background: 'white', font: { loadSystemFonts: false } }).render();
      const image = degrade(grayFromRgba(rendered.pixels, rendered.width, rendered.height), emPx, random);
      const map = connectedComponents(binarise(image));
      const groups = mergeComponents(map).filter((g) => g.box.y1 - g.box.y0 >= 0.25 * emPx);
      if (groups.length !== 1) continue; // the two letters stayed apart: an ordinary pair
      const [group] = groups;
      writer.add(
        normaliseCrop(
          map,
          group.parts.map((c) => c.id),
          group.box,
          emPx,
        ),
        0,
        source,
      );
    }
  }
  console.log(`${font}: ${writer.count} fused crops so far, ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

await mkdir(dirname(out), { recursive: true });
await writer.write(out, { classes: ['fused'], sources: fonts, seed: SEED, pairs, emPxRange: EM_PX_RANGE });
console.log(`wrote ${writer.count} fused crops to ${out}.bin in ${((Date.now() - started) / 1000).toFixed(0)} s (${pairs.length} pairs)`);
