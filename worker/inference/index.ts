import { ApiError } from '../../core/errors.js';
import { defineWorker } from '../../core/queue/index.js';
import { createMathRecognizer } from '../engine/math/index.js';
import { SymbolClassifier } from '../engine/math/image/classifier.js';
import { loadHandwritingClassifier, symbolsFromEitherHand } from '../engine/math/image/handwriting.js';
import { loadScanClassifier } from '../engine/math/image/scan-classifier.js';
import { TextRecognizer } from '../engine/text/index.js';
import type { RoleStarter } from '../context.js';
import { addStructures } from '../chemistry/image-structures.js';
import { judge, loadFormulaConfidence, loadHandwritingConfidence, type FormulaConfidenceModel } from './formula-confidence.js';
import { InkKindClassifier } from './ink-kind.js';
import { addMath, type MathEngines } from './math-page.js';
import { keepsTurn } from './math-turn.js';
import { startStrokesWorker } from './strokes.js';
import type { PageRecognition } from '../../page/model.js';
import { assemblePage } from '../../page/assemble.js';

/**
 * Inference role: loads the model bundle once (checked against models/manifest.json) and reads
 * page images from the 'page' queue, and pen strokes from the 'strokes' queue (strokes.ts). On CPU one task at a time: onnxruntime already uses every
 * core. With a GPU provider (recognition batches above one) PAGES_AT_ONCE_GPU tasks at a time,
 * so concurrent pages fill each other's recognition batches (engine/text/rec-batcher.ts).
 *
 * The maths recogniser is loaded beside the text recogniser. When its model is not installed the
 * worker still reads text (documents need nothing else), and a task that asks for maths fails
 * at once, unretried, saying so.
 */
export const PAGES_AT_ONCE_GPU = 4;
/** How much better than upright a turned reading must score before an image read for maths is turned. */
export const MATH_MIN_TURN_MARGIN = 0.25;

export const startInferenceRole: RoleStarter = async (ctx) => {
  const recognizer = await TextRecognizer.load();
  let engines: MathEngines | null = null;
  try {
    const classifier = await SymbolClassifier.load();
    const handwritten = await loadHandwritingClassifier();
    const scanned = await loadScanClassifier().catch((err: Error) => {
      ctx.logger.error({ err: err.message }, 'scan symbol model not loaded: scans are read by the typeset classifier');
      return undefined;
    });
    const classifiers = { printed: classifier, scanned, handwritten };
    const inkKind = await InkKindClassifier.load().catch((err: Error) => {
      ctx.logger.error({ err: err.message }, 'ink-kind model not loaded: /v3/text answers is_handwritten false');
      return undefined;
    });
    const judgeBy = (load: () => Promise<FormulaConfidenceModel>, what: string) =>
      load().then(
        (model) => (features: readonly number[]) => judge(model, features),
        (err: Error) => {
          ctx.logger.error({ err: err.message }, `${what} model not loaded: ${what.replace('-confidence', '')} reads report their per-symbol rate`);
          return undefined;
        },
      );
    const formulaConfidence = await judgeBy(loadFormulaConfidence, 'formula-confidence');
    const handwritingConfidence = await judgeBy(loadHandwritingConfidence, 'handwriting-confidence');
    engines = {
      math: createMathRecognizer({ imageClassifier: classifier, scanClassifier: scanned, handwritingClassifier: handwritten }),
      symbols: (image, handwriting) => symbolsFromEitherHand(image, classifiers, handwriting),
      inkKind,
      formulaConfidence,
      handwritingConfidence,
    };
  } catch (err) {
    ctx.logger.error({ err: (err as Error).message }, 'maths recogniser not loaded: page tasks asking for maths will fail');
  }
  ctx.logger.info(
    {
      providers: recognizer.executionProviders,
      textModel: recognizer.recognitionModel,
      latinTextModel: recognizer.latinRecognitionModel,
      maths: engines !== null,
    },
    'models loaded',
  );
  const worker = defineWorker(
    'page',
    async ({ imageKey, options }): Promise<PageRecognition> => {
      const png = await ctx.storage.readBuffer(imageKey);
      // A formula reads poorly as text upright and about as poorly turned: maths turns only on clear evidence.
      let r = await recognizer.recognize(png, options.math ? { minTurnMargin: MATH_MIN_TURN_MARGIN } : {});
      // A turn of an image read for maths stands only on the evidence of text or of maths (math-turn.ts).
      if (options.math && engines && !(await keepsTurn(png, r, engines))) r = await recognizer.recognize(png, { minTurnMargin: Infinity });
      const text: PageRecognition = { lines: r.lines, width: r.width, height: r.height, rotation: r.rotation, rotationConfidence: r.rotationConfidence };
      if (options.math && !engines) throw new ApiError('sys_exception', 'The maths model is not installed on this inference worker');
      const read = options.math ? await addMath(png, r, options, engines!) : text;
      const found = options.smiles ? await addStructures(png, read, { inchi: options.inchi, cpuSeconds: ctx.config.FOLIO_OSRA_CPU_SECONDS }) : read;
      // Page assembly runs here, beside recognition: the appliance only renders the assembled page.
      return options.assemble ? assemblePage(found, options.assemble) : found;
    },
    { connection: ctx.queueConnection, prefix: ctx.config.FOLIO_QUEUE_PREFIX, concurrency: recognizer.batchSize > 1 ? PAGES_AT_ONCE_GPU : 1 },
  );
  worker.on('error', (err) => ctx.logger.warn({ err: err.message }, 'inference worker error'));
  return [worker, await startStrokesWorker(ctx)];
};
