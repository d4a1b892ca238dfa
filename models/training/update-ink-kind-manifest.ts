/**
 * Writes the sha256, held-out accuracy and data notices of a freshly trained ink-kind classifier
 * into models/manifest.json (entry 'ink-kind'): `npx tsx models/training/update-ink-kind-manifest.ts`
 * (after ink-kind-train.py).
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { STROKES_DATA_NOTICES } from './data-notices.js';

const MANIFEST = 'models/manifest.json';
const MODEL = 'models/ink-kind.onnx';

type Entry = Record<string, unknown> & { id: string };
const manifest = JSON.parse(await readFile(MANIFEST, 'utf8')) as { models: Entry[] } & Record<string, unknown>;
const metrics = JSON.parse(await readFile('models/training/out/ink-kind-metrics.json', 'utf8')) as {
  training_images: number;
  epochs: number;
  held_out: { accuracy: number; images: number; by_source: Record<string, { accuracy: number; images: number }> };
};
const pct = (v: number) => `${(100 * v).toFixed(1)} %`;
const held = metrics.held_out;
const entry: Entry = {
  id: 'ink-kind',
  name: 'Folio handwritten-or-printed classifier (CNN over 48×192 windows of the ink rows; /v3/text is_handwritten, is_printed)',
  version: '1.0.0',
  path: 'ink-kind.onnx',
  sha256: createHash('sha256')
    .update(await readFile(MODEL))
    .digest('hex'),
  licence:
    'trained in this repository on Detexify (ODbL 1.0) and UNIPEN train_r01_v07 pen strokes drawn as ink, and MathJax (Apache-2.0) and system-font renders; see notices',
  notices: STROKES_DATA_NOTICES,
  recipe:
    'models/training: ink-kind-generate.ts (strokes composed into lines and drawn with random pen widths; the same content typeset; shared paper, blur and noise) + ink-kind-train.py (torch CPU, ONNX opset 13); `make models`',
  metrics: `held-out writers, expressions and fonts (${held.images} images): ${pct(held.accuracy)} (${Object.entries(held.by_source)
    .map(([s, v]) => `${s} ${pct(v.accuracy)}`)
    .join(', ')}); ${metrics.training_images} training images, ${metrics.epochs} epochs`,
};
const at = manifest.models.findIndex((e) => e.id === entry.id);
if (at >= 0) manifest.models[at] = entry;
else manifest.models.push(entry);
await writeFile(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`updated ${MANIFEST}: ink-kind ${String(entry.sha256).slice(0, 12)}`);
