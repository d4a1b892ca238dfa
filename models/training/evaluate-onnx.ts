/**
 * Checks the shipped ONNX model the way the engine runs it (onnxruntime-node, one thread):
 * accuracy on the pdflatex crops, and milliseconds per formula for symbolsFromImage.
 * `npx tsx models/training/evaluate-onnx.ts` after generate-latex-heldout.ts and training.
 */
import { readFile } from 'node:fs/promises';
import { Resvg } from '@resvg/resvg-js';
import { SymbolClassifier } from '../../worker/engine/math/image/classifier.js';
import { CROP_SIZE, FEATURE_COUNT, type NormalisedCrop } from '../../worker/engine/math/image/normalise.js';
import { symbolsFromImage } from '../../worker/engine/math/image/symbols-from-image.js';
import { grayFromRgba } from './dataset.js';
import { renderTexSvg } from './render-mathjax.js';

/** A 21-symbol formula: letters, digits, Greek, a big operator with limits, relations, a fraction. */
const TIMING_FORMULA = '\\sum_{i=1}^{n} \\alpha_i x^2 + \\frac{\\beta}{y} \\leq 42 \\pi';
const TIMING_RUNS = 50;

const classifier = await SymbolClassifier.load({ intraOpThreads: 1 });

for (const dpi of [150, 300]) {
  const prefix = `models/training/data/latex-${dpi}`;
  const meta = JSON.parse(await readFile(`${prefix}.json`, 'utf8')) as { count: number; classes: string[] };
  const raw = await readFile(`${prefix}.bin`);
  const n = meta.count;
  const pixelsAt = 0;
  const featuresAt = n * CROP_SIZE * CROP_SIZE;
  const labelsAt = featuresAt + n * FEATURE_COUNT * 4;
  const crops: NormalisedCrop[] = [];
  for (let i = 0; i < n; i++) {
    const bytes = raw.subarray(pixelsAt + i * CROP_SIZE * CROP_SIZE, pixelsAt + (i + 1) * CROP_SIZE * CROP_SIZE);
    const features = new Float32Array(FEATURE_COUNT);
    for (let k = 0; k < FEATURE_COUNT; k++) features[k] = raw.readFloatLE(featuresAt + (i * FEATURE_COUNT + k) * 4);
    crops.push({ pixels: Float32Array.from(bytes, (b) => b / 255), features });
  }
  const results = await classifier.classify(crops);
  const correct = results.filter((r, i) => r.latex === meta.classes[raw.readUInt16LE(labelsAt + 2 * i)]).length;
  console.log(`onnxruntime, pdflatex ${dpi} dpi, size known: ${((100 * correct) / n).toFixed(1)} % of ${n}`);
}

const svg = await renderTexSvg(TIMING_FORMULA, 'tex', { emPx: 36 });
const rendered = new Resvg(svg, { background: 'white', font: { loadSystemFonts: false } }).render();
const image = grayFromRgba(rendered.pixels, rendered.width, rendered.height);
const symbols = await symbolsFromImage(image, { classifier });
// CPU time as well as wall time: on a shared machine the wall clock mostly measures the neighbours.
const started = performance.now();
const cpuStarted = process.cpuUsage();
for (let i = 0; i < TIMING_RUNS; i++) await symbolsFromImage(image, { classifier });
const cpu = process.cpuUsage(cpuStarted);
const wallMs = (performance.now() - started) / TIMING_RUNS;
const cpuMs = (cpu.user + cpu.system) / 1000 / TIMING_RUNS;
console.log(
  `symbolsFromImage on a ${image.width}×${image.height} formula of ${symbols.length} symbols, one onnxruntime thread: ${cpuMs.toFixed(1)} ms CPU, ${wallMs.toFixed(1)} ms wall`,
);
console.log(`  read: ${symbols.map((s) => s.latex).join(' ')}`);
