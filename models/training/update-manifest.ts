/**
 * Writes the sha256 and measured metrics of a freshly trained classifier into models/manifest.json
 * (entries 'math-symbols' and 'math-symbols-labels'), so the engine loads the new files and
 * refuses any other: `npx tsx models/training/update-manifest.ts`.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';

const MANIFEST = 'models/manifest.json';
const VERSION = '1.0.0';
const RECIPE =
  'models/training: generate-symbols.ts (MathJax 4 SVG, fonts newcm/stix2/tex/modern/termes, resvg, blur/noise/stroke/rotation augmentation, crops by the inference pipeline) + train_symbols.py (torch CPU, ONNX opset 13); `make models`';

type Entry = Record<string, unknown> & { id: string };
const manifest = JSON.parse(await readFile(MANIFEST, 'utf8')) as { models: Entry[] } & Record<string, unknown>;
const metrics = JSON.parse(await readFile('models/training/out/metrics.json', 'utf8')) as Record<
  string,
  { size_known?: number; size_unknown?: number; font?: string }
>;
const sha256 = async (path: string) =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex');

const pct = (v: number | undefined) => (v === undefined ? 'n/a' : `${(100 * v).toFixed(1)} %`);
const summary = [
  `held-out font ${metrics.held_out_font?.font ?? 'n/a'}: ${pct(metrics.held_out_font?.size_known)}`,
  `pdflatex CM 150 dpi: ${pct(metrics.pdflatex_150dpi?.size_known)}`,
  `pdflatex CM 300 dpi: ${pct(metrics.pdflatex_300dpi?.size_known)}`,
].join('; ');

const entries: Entry[] = [
  {
    id: 'math-symbols',
    name: 'Folio maths symbol classifier (CNN, 32×32 crop + aspect/size features)',
    version: VERSION,
    path: 'math-symbols.onnx',
    sha256: await sha256('models/math-symbols.onnx'),
    licence: 'trained in this repository; data rendered from the Apache-2.0 MathJax 4 font packages',
    recipe: RECIPE,
    metrics: summary,
  },
  {
    id: 'math-symbols-labels',
    name: 'Class list (LaTeX tokens) and typical heights in em of the maths symbol classifier',
    version: VERSION,
    path: 'math-symbols.labels.json',
    sha256: await sha256('models/math-symbols.labels.json'),
    licence: 'trained in this repository',
  },
];
manifest.models = [...manifest.models.filter((e) => !entries.some((n) => n.id === e.id)), ...entries];
await writeFile(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`updated ${MANIFEST}: ${entries.map((e) => `${e.id} ${String(e.sha256).slice(0, 12)}`).join(', ')}; ${summary}`);
