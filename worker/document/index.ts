import { defineWorker } from '../../core/queue/index.js';
import { PcoStore } from '../../core/pco/store.js';
import type { RoleStarter } from '../context.js';
import { processPcoDocument } from './pco-document.js';

/** Document role: fetch, split, assemble and write documents of private-cloud jobs. */
export const startDocumentRole: RoleStarter = async (ctx) => {
  const store = new PcoStore(ctx.redis, ctx.config.FOLIO_QUEUE_PREFIX);
  const worker = defineWorker('pco-document', (payload, job) => processPcoDocument(ctx, store, payload, job), {
    connection: ctx.queueConnection,
    prefix: ctx.config.FOLIO_QUEUE_PREFIX,
    concurrency: 1,
  });
  worker.on('error', (err) => ctx.logger.warn({ err: err.message }, 'document worker error'));
  return [worker];
};
