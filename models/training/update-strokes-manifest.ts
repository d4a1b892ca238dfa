/**
 * Writes the sha256, measured metrics and third-party data notices of a freshly trained strokes
 * classifier into models/manifest.json (entries 'math-strokes' and 'math-strokes-labels'):
 * `npx tsx models/training/update-strokes-manifest.ts` (after strokes-real-train.py, or
 * strokes-real-export.py for a network trained on a GPU by strokes-gpu/, whose metrics name it).
 */
import { type ManifestEntry, pct, readJson, sha256Of, writeManifestEntries } from './manifest-update.js';
import { STROKES_DATA_NOTICES } from './data-notices.js';

const VERSION = '2.0.0';

const metrics = await readJson<{
  training_samples: number;
  epochs: number;
  held_out_writers: { size_known: number; size_unknown: number; count: number };
  /** What the network is and how it was trained, when not strokes-real-train.py's 1-D CNN. */
  network?: string;
  recipe?: string;
}>('models/training/out/strokes-metrics.json');
const held = metrics.held_out_writers;
const CPU_RECIPE =
  'models/training: strokes-real-generate.ts with VALIDATION_FOLD=1 PER_CLASS=1000 MAX_COPIES=30 (Detexify + UNIPEN folds 2-9, warped copies, traced MathJax fonts for classes without real drawings; fold 1 for choosing the epoch) + strokes-real-train.py (two 1-D CNNs with the size features at every point, their geometric mean shipped; torch CPU, one thread, affine warps of the trajectory, ONNX opset 13); `make models-strokes-cpu`';

const entries: ManifestEntry[] = [
  {
    id: 'math-strokes',
    name: `Folio pen-strokes symbol classifier (${metrics.network ?? '1-D CNN'} over the pen trajectory: 32 resampled points with position, direction and pen-up, plus aspect/size features)`,
    version: VERSION,
    path: 'math-strokes.onnx',
    sha256: await sha256Of('models/math-strokes.onnx'),
    licence:
      'trained in this repository on Detexify (ODbL 1.0) and UNIPEN train_r01_v07 (commercial training permitted with acknowledgement) pen strokes; see notices',
    notices: STROKES_DATA_NOTICES,
    recipe: metrics.recipe ?? CPU_RECIPE,
    metrics: `held-out writers (fold 0, ${held.count} symbols): ${pct(held.size_unknown)} size unknown, ${pct(held.size_known)} size known; ${metrics.training_samples} training samples, ${metrics.epochs} epochs; expressions: models/eval/RESULTS.md`,
  },
  {
    id: 'math-strokes-labels',
    name: 'Class list (LaTeX tokens), input shape and typical heights in em of the pen-strokes symbol classifier',
    version: VERSION,
    path: 'math-strokes.labels.json',
    sha256: await sha256Of('models/math-strokes.labels.json'),
    licence: 'trained in this repository',
  },
];
await writeManifestEntries(entries);
