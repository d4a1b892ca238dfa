import type { Worker } from 'bullmq';
import { defineWorker } from '../../core/queue/index.js';
import type { StrokesRead } from '../../core/v3/strokes.js';
import { calibratedRate } from '../engine/math/strokes/calibration.js';
import { defaultStrokeClassifier, recognizeStrokes } from '../engine/math/strokes/index.js';
import type { WorkerContext } from '../context.js';

/**
 * The inference role's reader of /v3/strokes: 'strokes' tasks carry the request's pen strokes and
 * answer the strokes recogniser's read (worker/engine/math/strokes). The classifier is loaded
 * before the first task; when it is missing the worker still starts, and each task fails saying so.
 */
export async function startStrokesWorker(ctx: Pick<WorkerContext, 'config' | 'logger' | 'queueConnection'>): Promise<Worker> {
  await defaultStrokeClassifier().catch((err: unknown) =>
    ctx.logger.error({ err: (err as Error).message }, 'strokes classifier not loaded: strokes tasks will fail'),
  );
  const worker = defineWorker(
    'strokes',
    async ({ strokes }): Promise<StrokesRead> => {
      const read = await recognizeStrokes(strokes);
      const boxes = read.boxes.map((b) => ({ confidence: b.confidence }));
      const confidenceRate = calibratedRate(boxes.map((b) => b.confidence));
      // The chance the whole read is right is no more than the calibrated chance that it is exact.
      return { latex: read.latex, confidence: Math.min(read.confidence, confidenceRate), boxes, confidenceRate };
    },
    { connection: ctx.queueConnection, prefix: ctx.config.FOLIO_QUEUE_PREFIX },
  );
  worker.on('error', (err) => ctx.logger.warn({ err: err.message }, 'strokes worker error'));
  return worker;
}
