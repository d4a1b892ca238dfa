import { mkdir, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import { binarise } from '../../worker/engine/math/image/binarise.js';
import { connectedComponents } from '../../worker/engine/math/image/components.js';
import { symbolsFromImage } from '../../worker/engine/math/image/symbols-from-image.js';
import { stemKey, stemRatio, STEM_TABLE_ID } from '../../worker/engine/math/image/stroke-weight.js';
import { readCorpus, type Formula } from '../eval/corpus.js';
import { readPgm } from '../eval/pgm.js';
import { renderCorpus } from '../eval/render.js';
import { calibrationFormulas } from './calibration-formulas.js';
import { sha256Of, writeManifestEntries } from './manifest-update.js';

/**
 * Fits the regular stem table bold letters are read against (worker/engine/math/image/stroke-weight.ts):
 * the generated calibration formulas (calibration-formulas.ts, the same renders as
 * formula-confidence-reads.ts --set calibration; none of them a held-out formula) that use no maths
 * alphabet are read at 150 and 300 dpi with bold off, and each class the classifier reads surely
 * gets the median of its glyphs' stem width over height. Classes seen fewer than MIN_SAMPLES times
 * are left out (never read as bold).
 *
 * Usage: npx tsx models/training/fit-stem-widths.ts [--count 600] → models/math-stems.json + manifest entry
 */

const MIN_SAMPLES = 5;
const SURE = 0.9;
const OUT = 'models/math-stems.json';

const { values } = parseArgs({ options: { count: { type: 'string', default: '600' } } });
const count = Number(values.count);
const corpus = await readCorpus(new URL('../eval/formulas.tsv', import.meta.url).pathname);
const formulas = calibrationFormulas(
  count,
  corpus.formulas.map((f) => f.latex),
  normaliseLatex,
).filter((f) => !/\\math(?:bf|cal|bb|frak|scr)|\\boldsymbol|\\bm\b/.test(f.latex));
formulas.push(...alphabetLines());
const cache = new URL('data/formula-confidence/render', import.meta.url).pathname;
await mkdir(cache, { recursive: true });
const rendered = await renderCorpus(formulas, cache);

/**
 * Every letter, digit and Greek letter of the classifier at the main size, italic and upright, in
 * lines of a few (`a\\; b\\; c`): classes the generated formulas seldom draw (an upright `w`) get
 * their ratio too.
 */
function alphabetLines(): Formula[] {
  const lower = 'abcdefghijklmnopqrstuvwxyz'.split('');
  const upper = lower.map((c) => c.toUpperCase());
  const greek =
    'alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega';
  const glyphs = [
    ...lower,
    ...upper,
    ...lower.map((c) => `\\mathrm{${c}}`),
    ...upper.map((c) => `\\mathrm{${c}}`),
    ...'0123456789'.split(''),
    ...greek.split(' ').map((g) => `\\${g}`),
  ];
  const lines: Formula[] = [];
  for (let i = 0; i < glyphs.length; i += 8) {
    const line = glyphs.slice(i, i + 8);
    lines.push({ id: `stems-${lines.length + 1}`, category: 'algebra', latex: [...line, ...line, ...line].join('\\; ') });
  }
  return lines;
}

const samples = new Map<string, number[]>();
for (const dpi of [150, 300] as const) {
  for (const item of rendered.formulas) {
    const image = await readPgm(item.crops[dpi].path);
    const map = connectedComponents(binarise(image));
    for (const symbol of await symbolsFromImage(image, { stems: false, rawConfidence: true })) {
      const key = symbol.confidence >= SURE ? stemKey(symbol) : null;
      if (!key) continue;
      // The glyph's components: those inside its box (a clean render's ink is the pipeline's).
      const parts = map.components.filter(
        (c) => c.box.x0 >= symbol.box.x0 && c.box.x1 <= symbol.box.x1 && c.box.y0 >= symbol.box.y0 && c.box.y1 <= symbol.box.y1,
      );
      const ratio = parts.length ? stemRatio(image, map, { parts, box: symbol.box, rule: false }) : null;
      if (ratio !== null) samples.set(key, [...(samples.get(key) ?? []), ratio]);
    }
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ratios = Object.fromEntries(
  [...samples]
    .filter(([, values]) => values.length >= MIN_SAMPLES)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, values]) => [key, Number(median(values).toFixed(5))]),
);
await writeFile(OUT, `${JSON.stringify({ ratios }, null, 1)}\n`);
const classes = Object.keys(ratios).length;
const glyphs = [...samples.values()].reduce((n, v) => n + v.length, 0);
await writeManifestEntries(
  [
    {
      id: STEM_TABLE_ID,
      name: 'Folio regular stem widths (per maths-symbol class: the stem width over the glyph height of its regular shape), against which bold letters in images are read',
      version: '1.0.0',
      path: 'math-stems.json',
      sha256: await sha256Of(OUT),
      licence: 'fitted in this repository on formulas it generated and rendered with pdflatex (Computer Modern)',
      recipe: 'models/training: fit-stem-widths.ts (calibration-formulas.ts without maths alphabets, 150 and 300 dpi, median per class read at ≥ 0.9)',
      metrics: `${classes} classes from ${glyphs} glyphs of ${formulas.length} formulas`,
    },
  ],
  `${classes} classes`,
);
