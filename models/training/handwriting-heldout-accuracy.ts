/**
 * Per-symbol accuracy of a handwriting image classifier on the held-out writers' crops (fold 0,
 * `<prefix>-test` of handwriting-symbols-generate.ts), read through onnxruntime as the image
 * pipeline reads them: with the size known, and unknown (height and flag zeroed).
 *
 *   npx tsx models/training/handwriting-heldout-accuracy.ts [model.onnx ...] [--data prefix-test]
 * @default model models/math-handwriting.onnx; data models/training/data/handwriting-symbols-test
 */
import { readFile } from 'node:fs/promises';
import ort from 'onnxruntime-node';
import { CROP_SIZE, FEATURE_COUNT } from '../../worker/engine/math/image/normalise.js';

const args = process.argv.slice(2);
const at = args.indexOf('--data');
const data = at >= 0 ? args.splice(at, 2)[1] : 'models/training/data/handwriting-symbols-test';
const models = args.length ? args : ['models/math-handwriting.onnx'];

const meta = JSON.parse(await readFile(`${data}.json`, 'utf8')) as { count: number; classes: string[] };
const raw = await readFile(`${data}.bin`);
const n = meta.count;
const pixels = CROP_SIZE * CROP_SIZE;
const crops = new Float32Array(n * pixels);
for (let i = 0; i < n * pixels; i++) crops[i] = raw[i] / 255;
const features = new Float32Array(raw.buffer.slice(raw.byteOffset + n * pixels, raw.byteOffset + n * pixels + n * FEATURE_COUNT * 4));
const labelsAt = n * pixels + n * FEATURE_COUNT * 4;
const labels = Array.from({ length: n }, (_, i) => raw.readUInt16LE(labelsAt + 2 * i));

async function accuracy(session: ort.InferenceSession, classes: string[], sizeKnown: boolean): Promise<number> {
  let right = 0;
  const batch = 1024;
  for (let start = 0; start < n; start += batch) {
    const count = Math.min(batch, n - start);
    const f = features.slice(start * FEATURE_COUNT, (start + count) * FEATURE_COUNT);
    if (!sizeKnown) for (let i = 0; i < count; i++) f.fill(0, i * FEATURE_COUNT + 1, (i + 1) * FEATURE_COUNT);
    const out = await session.run({
      crops: new ort.Tensor('float32', crops.subarray(start * pixels, (start + count) * pixels), [count, 1, CROP_SIZE, CROP_SIZE]),
      features: new ort.Tensor('float32', f, [count, FEATURE_COUNT]),
    });
    const p = out.probabilities.data as Float32Array;
    const k = p.length / count;
    for (let i = 0; i < count; i++) {
      let best = 0;
      for (let c = 1; c < k; c++) if (p[i * k + c] > p[i * k + best]) best = c;
      if (classes[best] === meta.classes[labels[start + i]]) right++;
    }
  }
  return right / n;
}

for (const model of models) {
  const session = await ort.InferenceSession.create(model, { intraOpNumThreads: 1 });
  const { classes } = JSON.parse(await readFile(model.replace(/\.onnx$/, '.labels.json'), 'utf8')) as { classes: string[] };
  const unknown = await accuracy(session, classes, false);
  const known = await accuracy(session, classes, true);
  console.log(`${model}: held-out writers ${(100 * unknown).toFixed(1)} % (size unknown), ${(100 * known).toFixed(1)} % (size known) of ${n} crops`);
}
