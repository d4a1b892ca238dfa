import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { ALL_SCANNER_EFFECTS, noisySkewed, scanSkew, type ScannerEffects } from '../../bench/scanned-renders.js';
import { readCorpus } from './corpus.js';
import { loadParts } from './front-ends.js';
import { NOISY_DPI, NOISY_SEED, pngOfPgm } from './noisy-scans.js';
import { renderCorpus } from './render.js';

/**
 * What each of the scanner's effects costs the engine's noisy row: every `--every`th formula of the
 * corpus read by the engine (image front end and parser, as `engine noisy scan 150 dpi` reads it) as
 * the scanner takes it with each effect alone, all but one, and all. The scans are the noisy row's
 * own (the same seeds and skews), so the "all" column is that row on the sample.
 *
 * Usage: npx tsx models/eval/noisy-ablation.ts [--every 5]   (about 1 min at 5, on one core)
 */

const NONE: ScannerEffects = { turn: false, blur: false, grain: false, dust: false };
const EFFECTS = Object.keys(ALL_SCANNER_EFFECTS) as (keyof ScannerEffects)[];

/** The columns: the clean crop, each effect alone, all but each one, and every effect. */
const COLUMNS: { name: string; effects: ScannerEffects }[] = [
  { name: 'clean', effects: NONE },
  ...EFFECTS.map((e) => ({ name: `${e} alone`, effects: { ...NONE, [e]: true } })),
  ...EFFECTS.map((e) => ({ name: `all but ${e}`, effects: { ...ALL_SCANNER_EFFECTS, [e]: false } })),
  { name: 'all', effects: ALL_SCANNER_EFFECTS },
];

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { every: { type: 'string', default: '5' } } });
  const every = Number(values.every);
  if (!Number.isInteger(every) || every < 1) throw new Error(`--every must be a positive integer, not ${values.every}`);
  const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
  const corpus = await readCorpus(here('formulas.tsv'));
  const rendered = await renderCorpus(corpus.formulas, here('.cache'));
  const parts = await loadParts();
  if (!parts.core.ok || !parts.image.ok) throw new Error('the parser, normaliser or image front end is missing');
  const { normaliseLatex, parseLayout } = parts.core.value;
  const { symbolsFromImage } = parts.image.value;

  const exact = new Array<number>(COLUMNS.length).fill(0);
  let formulas = 0;
  for (let i = 0; i < rendered.formulas.length; i += every) {
    const item = rendered.formulas[i]!;
    const clean = await pngOfPgm(item.crops[NOISY_DPI].path);
    const expected = normaliseLatex(item.formula.latex);
    const marks: string[] = [];
    for (const [k, { effects }] of COLUMNS.entries()) {
      const png = await noisySkewed(clean.png, scanSkew(i), NOISY_SEED + i, effects);
      const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
      const symbols = await symbolsFromImage({ data: new Uint8Array(data), width: info.width, height: info.height });
      const right = normaliseLatex((await parseLayout(symbols)).latex) === expected;
      exact[k] += Number(right);
      marks.push(right ? '✓' : '✗');
    }
    formulas++;
    console.log(`${item.formula.id.padEnd(8)} ${marks.join(' ')}`);
  }
  console.log(`\nExact match of ${formulas} formulas (every ${every}th), engine, ${NOISY_DPI} dpi:\n`);
  console.log(`| ${COLUMNS.map((c) => c.name).join(' | ')} |`);
  console.log(`| ${COLUMNS.map(() => '---').join(' | ')} |`);
  console.log(`| ${exact.map((n) => `${((100 * n) / formulas).toFixed(1)} %`).join(' | ')} |`);
}

await main();
