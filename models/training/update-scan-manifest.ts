/**
 * Writes the sha256 and measured metrics of a freshly fine-tuned scan classifier into
 * models/manifest.json (entries 'math-symbols-scan' and 'math-symbols-scan-labels'):
 * `npx tsx models/training/update-scan-manifest.ts` (after `train_symbols.py --name math-symbols-scan`).
 */
import { type ManifestEntry, pct, readJson, sha256Of, writeManifestEntries } from './manifest-update.js';

const metrics = await readJson<{
  training_crops: number;
  scanned_crops: number;
  epochs: number;
  lr: number;
  pdflatex_150dpi?: { size_known?: number };
  pdflatex_300dpi?: { size_known?: number };
}>('models/training/out/math-symbols-scan-metrics.json');

const summary = [
  `pdflatex CM 150 dpi: ${pct(metrics.pdflatex_150dpi?.size_known)}`,
  `pdflatex CM 300 dpi: ${pct(metrics.pdflatex_300dpi?.size_known)}`,
  `${metrics.training_crops} crops (${metrics.scanned_crops} scanned), ${metrics.epochs} epochs at lr ${metrics.lr}`,
].join('; ');

const entries: ManifestEntry[] = [
  {
    id: 'math-symbols-scan',
    name: 'Folio maths symbol classifier for scans (math-symbols fine-tuned on scanned crops; read only where an image has paper noise)',
    version: '1.0.0',
    path: 'math-symbols-scan.onnx',
    sha256: await sha256Of('models/math-symbols-scan.onnx'),
    licence: 'trained in this repository; data rendered from the Apache-2.0 MathJax 4 font packages',
    recipe:
      'models/training: generate-symbols.ts (symbol crops, and with SCAN_SHARE=1 renders blurred 0.4-1.0 px with sensor noise sigma 18 and dust) + train_symbols.py --scanned --init models/math-symbols.onnx --name math-symbols-scan (torch CPU, ONNX opset 13); `make models`',
    metrics: summary,
  },
  {
    id: 'math-symbols-scan-labels',
    name: 'Class list (LaTeX tokens) and typical heights in em of the scan symbol classifier',
    version: '1.0.0',
    path: 'math-symbols-scan.labels.json',
    sha256: await sha256Of('models/math-symbols-scan.labels.json'),
    licence: 'trained in this repository',
  },
];
await writeManifestEntries(entries, summary);
