/**
 * Writes the sha256 and measured metrics of a freshly trained classifier into models/manifest.json
 * (entries 'math-symbols' and 'math-symbols-labels'), so the engine loads the new files and
 * refuses any other: `npx tsx models/training/update-manifest.ts`.
 */
import { type ManifestEntry, pct, readJson, sha256Of, writeManifestEntries } from './manifest-update.js';

const VERSION = '1.0.0';
const RECIPE =
  'models/training: generate-symbols.ts (MathJax 4 SVG, fonts newcm/stix2/tex/modern/termes, resvg, blur/noise/stroke/rotation augmentation, crops by the inference pipeline) + train_symbols.py (torch CPU, ONNX opset 13); `make models`';

const metrics = await readJson<Record<string, { size_known?: number; size_unknown?: number; font?: string }>>('models/training/out/metrics.json');

const summary = [
  `held-out font ${metrics.held_out_font?.font ?? 'n/a'}: ${pct(metrics.held_out_font?.size_known)}`,
  `pdflatex CM 150 dpi: ${pct(metrics.pdflatex_150dpi?.size_known)}`,
  `pdflatex CM 300 dpi: ${pct(metrics.pdflatex_300dpi?.size_known)}`,
].join('; ');

const entries: ManifestEntry[] = [
  {
    id: 'math-symbols',
    name: 'Folio maths symbol classifier (CNN, 32×32 crop + aspect/size features)',
    version: VERSION,
    path: 'math-symbols.onnx',
    sha256: await sha256Of('models/math-symbols.onnx'),
    licence: 'trained in this repository; data rendered from the Apache-2.0 MathJax 4 font packages',
    recipe: RECIPE,
    metrics: summary,
  },
  {
    id: 'math-symbols-labels',
    name: 'Class list (LaTeX tokens) and typical heights in em of the maths symbol classifier',
    version: VERSION,
    path: 'math-symbols.labels.json',
    sha256: await sha256Of('models/math-symbols.labels.json'),
    licence: 'trained in this repository',
  },
];
await writeManifestEntries(entries, summary);
