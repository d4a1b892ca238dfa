import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { markdownTable, normalisedEditDistance, percent } from '../../worker/engine/math/eval-metrics.js';
import { SymbolClassifier } from '../../worker/engine/math/image/classifier.js';
import { HANDWRITING_CONFIDENCE_EXPONENT, loadHandwritingClassifier, symbolsFromEitherHand } from '../../worker/engine/math/image/handwriting.js';
import { symbolsFromImage } from '../../worker/engine/math/image/symbols-from-image.js';
import { parseLayout } from '../../worker/engine/math/layout/index.js';
import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import type { GrayImage, MathSymbol } from '../../worker/engine/math/types.js';
import { binarise } from '../../worker/engine/math/image/binarise.js';
import { inkBands } from '../../worker/inference/bands.js';
import { InkKindClassifier } from '../../worker/inference/ink-kind.js';
import { datasetsPresent } from '../training/strokes-real.js';
import { readCorpus } from './corpus.js';
import { handwrittenImages } from './handwriting-image-set.js';
import { readPgm } from './pgm.js';
import { renderCorpus } from './render.js';

/**
 * Pictures of handwriting through the image engine (handwriting-image-set.ts: held-out writers),
 * read four ways: the typeset classifier alone (before), the handwriting classifier alone, both with
 * the likelier read kept, and as /v3/text reads them: the ink-kind classifier's answer picks one
 * classifier, both when it is unsure (image/handwriting.ts). Exact match, edit
 * distance, and what the default confidence_rate_threshold 0.75 answers.
 *
 * Calibration: the handwriting classifier's raw rates on the odd rows fit its exponent (the largest
 * that keeps KEEP of their exact reads at 0.75, as the print exponent was fitted: image/calibration.ts); the
 * reliability table is on the even rows, with the shipped HANDWRITING_CONFIDENCE_EXPONENT.
 * Typeset check: the first --typeset formulas of formulas.tsv at 150 dpi, typeset classifier
 * alone against both classifiers and against the shipped route, and the time each takes.
 *
 * Usage: npx tsx models/eval/handwriting-image-run.ts [--count 300] [--typeset 120]   (writes HANDWRITING-IMAGE.md)
 */

const THRESHOLD = 0.75;
const KEEP = 0.9;
const BINS = [0, 0.5, 0.75, 0.9, 0.97, 1.0001];
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const { values } = parseArgs({ options: { count: { type: 'string' }, typeset: { type: 'string' } } });
if (!datasetsPresent()) throw new Error('the shared data sets (FOLIO_DATASETS, default /work/shared/datasets) are not here');

interface Read {
  exact: boolean;
  distance: number;
  rate: number;
  got: string;
}

const geometricMean = (v: number[]) => (v.length ? Math.exp(v.reduce((s, x) => s + Math.log(Math.max(x, 1e-12)), 0) / v.length) : 0);
const same = (latex: string) => {
  try {
    return normaliseLatex(latex).replace(/\\cdot/g, '.');
  } catch {
    return `unparsable ${latex}`;
  }
};
function scored(symbols: MathSymbol[], expected: string): Read {
  const result = parseLayout(symbols);
  const [want, got] = [same(expected), same(result.latex)];
  return { exact: want === got, distance: normalisedEditDistance(want, got), rate: geometricMean(result.boxes.map((b) => b.confidence)), got };
}

const printed = await SymbolClassifier.load();
const handwritten = await loadHandwritingClassifier();
const inkKind = await InkKindClassifier.load();
const handwriting = async (image: GrayImage) => {
  const mask = binarise(image);
  return inkKind.handwriting(image, mask, inkBands(mask));
};
const SHIPPED = 'ink kind picks, both when unsure (shipped)';
const BOTH = 'both, likelier kept';
const ways = {
  'typeset classifier (before)': (image: GrayImage) => symbolsFromImage(image, { classifier: printed }),
  'handwriting classifier': (image: GrayImage) => symbolsFromImage(image, { classifier: handwritten, confidenceExponent: HANDWRITING_CONFIDENCE_EXPONENT }),
  [BOTH]: async (image: GrayImage) => (await symbolsFromEitherHand(image, { printed, handwritten })).symbols,
  [SHIPPED]: async (image: GrayImage) => (await symbolsFromEitherHand(image, { printed, handwritten }, await handwriting(image))).symbols,
};

const images = await handwrittenImages(Number(values.count ?? 300));
const reads = new Map<string, Read[]>(Object.keys(ways).map((w) => [w, []]));
const raw: Read[] = [];
const handTime = new Map<string, number>();
const failures: string[] = [];
for (const item of images) {
  for (const [name, read] of Object.entries(ways)) {
    const started = performance.now();
    const symbols = await read(item.image);
    handTime.set(name, (handTime.get(name) ?? 0) + performance.now() - started);
    reads.get(name)!.push(scored(symbols, item.latex));
  }
  raw.push(scored(await symbolsFromImage(item.image, { classifier: handwritten, rawConfidence: true }), item.latex));
  const shipped = reads.get(SHIPPED)!.at(-1)!;
  if (!shipped.exact && failures.length < 25) failures.push(`| ${item.id} | \`${same(item.latex)}\` | \`${shipped.got}\` | ${shipped.rate.toFixed(3)} |`);
}

const summary = (rows: Read[]) => {
  const answered = rows.filter((r) => r.rate >= THRESHOLD);
  const answeredExact = answered.filter((r) => r.exact).length;
  return [
    percent(rows.filter((r) => r.exact).length / rows.length),
    (rows.reduce((s, r) => s + r.distance, 0) / rows.length).toFixed(3),
    percent(answeredExact / rows.length),
    percent(answered.length / rows.length),
    answered.length ? percent(answeredExact / answered.length) : '–',
  ];
};
const main = markdownTable(
  ['read with', 'exact', 'edit distance', 'exact and answered at 0.75', 'answered', 'answered that are exact', 'symbols time'],
  [...reads].map(([name, rows]) => [name, ...summary(rows), `${((handTime.get(name) ?? 0) / rows.length).toFixed(0)} ms`]),
);

const odd = raw.filter((_, i) => i % 2 === 1);
const exactRates = odd
  .filter((r) => r.exact)
  .map((r) => r.rate)
  .sort((a, b) => a - b);
const cut = exactRates[Math.floor((1 - KEEP) * exactRates.length)] ?? 1;
const fitted = cut >= 1 ? 1 : Math.log(THRESHOLD) / Math.log(cut);
const even = reads.get('handwriting classifier')!.filter((_, i) => i % 2 === 0);
const reliability = markdownTable(
  ['confidence_rate', 'reads', 'exact'],
  BINS.slice(0, -1).map((low, i) => {
    const inBin = even.filter((r) => r.rate >= low && r.rate < BINS[i + 1]!);
    return [
      `${low.toFixed(2)}–${Math.min(1, BINS[i + 1]!).toFixed(2)}`,
      String(inBin.length),
      inBin.length ? percent(inBin.filter((r) => r.exact).length / inBin.length) : '–',
    ];
  }),
);
const evenExact = even.filter((r) => r.exact);
const evenWrong = even.filter((r) => !r.exact);
const atThreshold = `${percent(evenExact.filter((r) => r.rate >= THRESHOLD).length / Math.max(1, evenExact.length))} of ${evenExact.length} exact reads answered, ${percent(evenWrong.filter((r) => r.rate < THRESHOLD).length / Math.max(1, evenWrong.length))} of ${evenWrong.length} wrong reads refused`;

// Typeset images: the typeset classifier alone against both.
const corpus = await readCorpus(here('formulas.tsv'));
const rendered = await renderCorpus(corpus.formulas, here('.cache'));
const typesetRows: string[][] = [];
const timing: Record<string, number> = {};
for (const name of ['typeset classifier (before)', BOTH, SHIPPED]) {
  let exact = 0;
  const items = rendered.formulas.slice(0, Number(values.typeset ?? 120));
  const started = performance.now();
  for (const item of items) exact += Number(scored(await ways[name as keyof typeof ways](await readPgm(item.crops[150].path)), item.formula.latex).exact);
  timing[name] = (performance.now() - started) / items.length;
  typesetRows.push([name, String(items.length), percent(exact / items.length), `${timing[name]!.toFixed(0)} ms`]);
}

const report = `# Handwritten formula images

Written by \`npx tsx models/eval/handwriting-image-run.ts\` (method in its header), ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.
${images.length} composed expressions of held-out writers (fold 0) drawn as ink, through the image engine (symbols → layout parser).

${main}

The answered columns judge each read by its symbols' geometric-mean probability. Since session 22
\`/v3/text\` answers a read by the handwriting classifier by the handwriting-confidence model instead
(the evidence of the whole read, a second read at twice the size included; fitted on training
writers' pictures): its reliability on held-out writers is in \`HANDWRITING-CONFIDENCE.md\`, and
what it answers through the product by \`handwriting-image-http.ts\`.

## Calibration of the handwriting read

Fitted on the ${odd.length} odd rows: exponent ${fitted.toFixed(2)} (keeps ${percent(KEEP)} of exact reads at ${THRESHOLD}); shipped HANDWRITING_CONFIDENCE_EXPONENT ${HANDWRITING_CONFIDENCE_EXPONENT}.
Reliability on the ${even.length} even rows (handwriting classifier, shipped exponent): ${atThreshold}.

${reliability}

## Typeset images are not hurt

formulas.tsv at 150 dpi, first formulas; time is per formula on this machine under its load, both in the same run.

${markdownTable(['read with', 'formulas', 'exact', 'time'], typesetRows)}

## First failures (shipped route)

| id | expected | read | confidence_rate |
| --- | --- | --- | --- |
${failures.join('\n')}
`;
console.log(report);
await writeFile(here('HANDWRITING-IMAGE.md'), report);
