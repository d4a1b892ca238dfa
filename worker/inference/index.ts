import { defineWorker } from '../../core/queue/index.js';
import { TextRecognizer } from '../engine/text/index.js';
import type { RoleStarter } from '../context.js';
import type { OcrPageResult } from '../document/scanned-pages.js';

/**
 * Inference role: loads the model bundle once (checked against models/manifest.json) and reads
 * page images from the 'page' queue. One task at a time: onnxruntime already uses every core.
 */
export const startInferenceRole: RoleStarter = async (ctx) => {
  const recognizer = await TextRecognizer.load();
  ctx.logger.info({ providers: recognizer.executionProviders }, 'models loaded');
  const worker = defineWorker(
    'page',
    async ({ imageKey }): Promise<OcrPageResult> => {
      const r = await recognizer.recognize(await ctx.storage.readBuffer(imageKey));
      return { lines: r.lines, width: r.width, height: r.height, rotation: r.rotation, rotationConfidence: r.rotationConfidence };
    },
    { connection: ctx.queueConnection, prefix: ctx.config.FOLIO_QUEUE_PREFIX, concurrency: 1 },
  );
  worker.on('error', (err) => ctx.logger.warn({ err: err.message }, 'inference worker error'));
  return [worker];
};
