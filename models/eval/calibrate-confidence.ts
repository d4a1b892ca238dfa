import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { markdownTable, percent } from '../../worker/engine/math/eval-metrics.js';
import { CONFIDENCE_EXPONENT } from '../../worker/engine/math/image/calibration.js';
import { symbolsFromImage } from '../../worker/engine/math/image/symbols-from-image.js';
import { parseLayout } from '../../worker/engine/math/layout/index.js';
import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import { readCorpus } from './corpus.js';
import { readPgm } from './pgm.js';
import { renderCorpus, RESOLUTIONS_DPI, type RenderedFormula } from './render.js';

/**
 * Fits and checks the image confidence calibration (worker/engine/math/image/calibration.ts).
 * The held-out formula images (formulas.tsv, pdflatex, 150 and 300 dpi) are split in two by row:
 * odd rows fit the exponent — the largest that keeps KEEP of their exact reads at or above the
 * spec's default confidence_rate_threshold — and even rows, never used to fit, give the
 * reliability table with the shipped exponent: per confidence_rate bin, how many reads and how
 * many of them exact; and at the threshold, the share of exact reads answered and of wrong reads
 * refused. confidence_rate is the geometric mean of the symbols' confidences, as /v3/text reports it.
 *
 * Usage: npx tsx models/eval/calibrate-confidence.ts   (writes models/eval/CONFIDENCE.md)
 */

const THRESHOLD = 0.75;
const KEEP = 0.96;
const BINS = [0, 0.5, 0.75, 0.9, 0.97, 1.0001];

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

interface Read {
  dpi: number;
  exact: boolean;
  rate: number;
}

const geometricMean = (values: number[]) => (values.length ? Math.exp(values.reduce((s, v) => s + Math.log(Math.max(v, 1e-12)), 0) / values.length) : 0);

async function readAll(formulas: RenderedFormula[], raw: boolean): Promise<Read[]> {
  const reads: Read[] = [];
  for (const dpi of RESOLUTIONS_DPI) {
    for (const item of formulas) {
      const symbols = await symbolsFromImage(await readPgm(item.crops[dpi].path), { rawConfidence: raw });
      const result = parseLayout(symbols);
      let exact = false;
      try {
        exact = normaliseLatex(result.latex) === normaliseLatex(item.formula.latex);
      } catch {
        // A reading the normaliser cannot parse is wrong.
      }
      reads.push({ dpi, exact, rate: geometricMean(result.boxes.map((b) => b.confidence)) });
    }
  }
  return reads;
}

/** The exponent that puts the (1 − KEEP) quantile of exact reads' raw rates at the threshold. */
function fitExponent(reads: Read[]): number {
  const rates = reads
    .filter((r) => r.exact)
    .map((r) => r.rate)
    .sort((a, b) => a - b);
  const cut = rates[Math.floor((1 - KEEP) * rates.length)] ?? 1;
  return cut >= 1 ? 1 : Math.log(THRESHOLD) / Math.log(cut);
}

function reliability(reads: Read[]): string {
  const rows = BINS.slice(0, -1).map((low, i) => {
    const high = BINS[i + 1]!;
    const inBin = reads.filter((r) => r.rate >= low && r.rate < high);
    const meanRate = inBin.reduce((s, r) => s + r.rate, 0) / Math.max(1, inBin.length);
    return [
      `${low.toFixed(2)}–${Math.min(1, high).toFixed(2)}`,
      String(inBin.length),
      inBin.length ? meanRate.toFixed(3) : '–',
      inBin.length ? percent(inBin.filter((r) => r.exact).length / inBin.length) : '–',
    ];
  });
  return markdownTable(['confidence_rate', 'reads', 'mean rate', 'exact'], rows);
}

function atThreshold(reads: Read[]): { answeredExact: number; refusedWrong: number; exact: number; wrong: number } {
  const exact = reads.filter((r) => r.exact);
  const wrong = reads.filter((r) => !r.exact);
  return {
    answeredExact: exact.filter((r) => r.rate >= THRESHOLD).length / Math.max(1, exact.length),
    refusedWrong: wrong.filter((r) => r.rate < THRESHOLD).length / Math.max(1, wrong.length),
    exact: exact.length,
    wrong: wrong.length,
  };
}

async function main(): Promise<void> {
  const corpus = await readCorpus(here('formulas.tsv'));
  const rendered = await renderCorpus(corpus.formulas, here('.cache'));
  const fitting = rendered.formulas.filter((_, i) => i % 2 === 1);
  const heldOut = rendered.formulas.filter((_, i) => i % 2 === 0);
  const fitted = fitExponent(await readAll(fitting, true));
  const raw = await readAll(heldOut, true);
  const shipped = await readAll(heldOut, false);
  const lines = [
    '# Formula-image confidence calibration',
    '',
    `Written by \`npx tsx models/eval/calibrate-confidence.ts\` (method in its header). Fitted on ${fitting.length} formulas × ${RESOLUTIONS_DPI.length} resolutions: exponent ${fitted.toFixed(2)}; shipped CONFIDENCE_EXPONENT ${CONFIDENCE_EXPONENT}. Held-out: the other ${heldOut.length} formulas.`,
    '',
  ];
  for (const [name, reads] of [
    ['raw classifier probabilities (before)', raw],
    [`calibrated, exponent ${CONFIDENCE_EXPONENT} (after)`, shipped],
  ] as const) {
    for (const dpi of [...RESOLUTIONS_DPI, 0]) {
      const subset = dpi === 0 ? reads : reads.filter((r) => r.dpi === dpi);
      const t = atThreshold(subset);
      lines.push(
        `## ${name}, ${dpi === 0 ? 'both resolutions' : `${dpi} dpi`}`,
        '',
        `At confidence_rate_threshold ${THRESHOLD}: ${percent(t.answeredExact)} of ${t.exact} exact reads answered, ${percent(t.refusedWrong)} of ${t.wrong} wrong reads refused.`,
        '',
        reliability(subset),
        '',
      );
    }
  }
  await writeFile(here('CONFIDENCE.md'), lines.join('\n'));
  console.log(lines.join('\n'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
