import type { Worker } from 'bullmq';
import { defineWorker } from '../../core/queue/index.js';
import type { StrokesRead } from '../../core/v3/strokes.js';
import { defaultStrokeClassifier } from '../engine/math/strokes/index.js';
import type { WorkerContext } from '../context.js';
import { loadStrokesConfidence, readJudged } from './strokes-confidence.js';

/**
 * The inference role's reader of /v3/strokes: 'strokes' tasks carry the request's pen strokes and
 * answer the strokes recogniser's read (worker/engine/math/strokes) with the calibrated confidence
 * of strokes-confidence.ts: `confidence` is the model's chance that the read is exact,
 * `confidence_rate` the same chance on the scale the default threshold 0.75 is read on. The
 * classifier and the confidence model are loaded before the first task; when one is missing the
 * worker still starts, and each task fails saying so.
 */
export async function startStrokesWorker(ctx: Pick<WorkerContext, 'config' | 'logger' | 'queueConnection'>): Promise<Worker> {
  await defaultStrokeClassifier().catch((err: unknown) =>
    ctx.logger.error({ err: (err as Error).message }, 'strokes classifier not loaded: strokes tasks will fail'),
  );
  await loadStrokesConfidence().catch((err: unknown) =>
    ctx.logger.error({ err: (err as Error).message }, 'strokes confidence model not loaded: strokes tasks will fail'),
  );
  const worker = defineWorker(
    'strokes',
    async ({ strokes }): Promise<StrokesRead> => {
      const { result, confidence, rate } = await readJudged(await loadStrokesConfidence(), strokes);
      const boxes = result.boxes.map((b) => ({ confidence: b.confidence }));
      return { latex: result.latex, confidence, boxes, confidenceRate: rate };
    },
    { connection: ctx.queueConnection, prefix: ctx.config.FOLIO_QUEUE_PREFIX },
  );
  worker.on('error', (err) => ctx.logger.warn({ err: err.message }, 'strokes worker error'));
  return worker;
}
