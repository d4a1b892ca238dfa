/**
 * Writes the sha256, held-out accuracy and data notices of a freshly trained ink-kind classifier
 * into models/manifest.json (entry 'ink-kind'): `npx tsx models/training/update-ink-kind-manifest.ts`
 * (after ink-kind-train.py).
 */
import { type ManifestEntry, pct, readJson, sha256Of, writeManifestEntries } from './manifest-update.js';
import { STROKES_DATA_NOTICES } from './data-notices.js';

const MODEL = 'models/ink-kind.onnx';

const metrics = await readJson<{
  training_images: number;
  epochs: number;
  held_out: { accuracy: number; images: number; by_source: Record<string, { accuracy: number; images: number }> };
}>('models/training/out/ink-kind-metrics.json');
const held = metrics.held_out;
const entry: ManifestEntry = {
  id: 'ink-kind',
  name: 'Folio handwritten-or-printed classifier (CNN over 48×192 windows of the ink rows; /v3/text is_handwritten, is_printed)',
  version: '1.0.0',
  path: 'ink-kind.onnx',
  sha256: await sha256Of(MODEL),
  licence:
    'trained in this repository on Detexify (ODbL 1.0) and UNIPEN train_r01_v07 pen strokes drawn as ink, and MathJax (Apache-2.0) and system-font renders; see notices',
  notices: STROKES_DATA_NOTICES,
  recipe:
    'models/training: ink-kind-generate.ts (strokes composed into lines and drawn with random pen widths; the same content typeset; shared paper, blur and noise) + ink-kind-train.py (torch CPU, ONNX opset 13); `make models`',
  metrics: `held-out writers, expressions and fonts (${held.images} images): ${pct(held.accuracy)} (${Object.entries(held.by_source)
    .map(([s, v]) => `${s} ${pct(v.accuracy)}`)
    .join(', ')}); ${metrics.training_images} training images, ${metrics.epochs} epochs`,
};
await writeManifestEntries([entry]);
