/**
 * Writes the sha256, measured held-out accuracy and third-party data notices of a freshly trained
 * handwriting image classifier into models/manifest.json (entries 'math-handwriting' and
 * 'math-handwriting-labels', added when absent):
 * `npx tsx models/training/update-handwriting-manifest.ts` (after train_handwriting_symbols.py).
 */
import { type ManifestEntry, pct, readJson, sha256Of, writeManifestEntries } from './manifest-update.js';
import { STROKES_DATA_NOTICES } from './data-notices.js';

const VERSION = '1.0.0';

const metrics = await readJson<{
  training_crops: number;
  epochs: number;
  held_out_writers: { size_known: number; size_unknown: number; count: number };
}>('models/training/out/handwriting-metrics.json');
const held = metrics.held_out_writers;

const entries: ManifestEntry[] = [
  {
    id: 'math-handwriting',
    name: 'Folio handwriting image symbol classifier (CNN, 32×32 crop + aspect/size features; the typeset classifier’s network and inputs)',
    version: VERSION,
    path: 'math-handwriting.onnx',
    sha256: await sha256Of('models/math-handwriting.onnx'),
    licence:
      'trained in this repository on Detexify (ODbL 1.0) and UNIPEN train_r01_v07 (commercial training permitted with acknowledgement) pen strokes drawn as ink; see notices',
    notices: STROKES_DATA_NOTICES,
    recipe:
      'models/training: handwriting-symbols-generate.ts (Detexify + UNIPEN folds 1-9 drawn as ink with varied size, width, pen, blur and noise, cropped by the inference pipeline; five rounds of 250 a class, half stretched 0.6-1.8 wide) + train_handwriting_gpu.py (SymbolNet, augmented on a GPU, 40 epochs, chosen on fold-1 writers; exported with torch 1.13, ONNX opset 13). `make models` trains the same network on CPU (train_handwriting_symbols.py)',
    metrics: `held-out writers (fold 0, ${held.count} symbols): ${pct(held.size_unknown)} size unknown, ${pct(held.size_known)} size known; ${metrics.training_crops} training crops, ${metrics.epochs} epochs; expressions: models/eval/HANDWRITING-IMAGE.md`,
  },
  {
    id: 'math-handwriting-labels',
    name: 'Class list (LaTeX tokens) and typical heights in em of the handwriting image symbol classifier',
    version: VERSION,
    path: 'math-handwriting.labels.json',
    sha256: await sha256Of('models/math-handwriting.labels.json'),
    licence: 'trained in this repository',
  },
];
await writeManifestEntries(entries);
