import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import { recognizeStrokes } from '../../worker/engine/math/strokes/index.js';
import { loadStrokesConfidence, readJudged } from '../../worker/inference/strokes-confidence.js';
import { DATASETS_DIR, datasetsPresent } from '../training/strokes-real.js';
import { evaluateRealStrokes, realStrokesMarkdown } from './strokes-real-evaluate.js';

/**
 * The RESULTS.md section on real handwriting of held-out writers: the strokes rows of `make
 * eval-math`. Without the shared data sets (a clean clone) it says so instead of a number.
 */
export async function realStrokesSection(): Promise<string> {
  const heading = '## Strokes on real handwriting (held-out writers)\n\n';
  if (!datasetsPresent()) return `${heading}Not measured: the data sets under ${DATASETS_DIR} (FOLIO_DATASETS) are not on this machine.\n`;
  const started = performance.now();
  const model = await loadStrokesConfidence();
  const report = await evaluateRealStrokes((strokes) => readJudged(model, strokes), normaliseLatex, { readSymbol: (strokes) => recognizeStrokes(strokes) });
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  return `${heading}Fold 0 of Detexify and UNIPEN (writers no training sample came from), through the engine (models/eval/strokes-real-*.ts, ${seconds} s).\n\n${realStrokesMarkdown(report)}`;
}
