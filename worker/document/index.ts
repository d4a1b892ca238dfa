import { defineWorker } from '../../core/queue/index.js';
import { PcoStore } from '../../core/pco/store.js';
import { ConversionStore } from '../../core/v3/conversion-store.js';
import { PdfStore } from '../../core/v3/pdf-store.js';
import type { RoleStarter } from '../context.js';
import { processCountPages } from './count-pages.js';
import { processPcoDocument } from './pco-document.js';
import { processV3Conversion } from './v3-convert.js';
import { processV3Pdf } from './v3-pdf.js';
import { prewarmPdfReader } from './pipeline/pdf-reader.js';

/**
 * Document role: fetch, split, assemble and write documents of private-cloud jobs and of
 * /v3/pdf, make /v3/converter formats and count a dry run's sample pages. Each task has its own
 * queue and worker.
 */
export const startDocumentRole: RoleStarter = async (ctx) => {
  prewarmPdfReader();
  const prefix = ctx.config.FOLIO_QUEUE_PREFIX;
  const opts = { connection: ctx.queueConnection, prefix, concurrency: 1 };
  const store = new PcoStore(ctx.redis, prefix);
  const pdfs = new PdfStore(ctx.redis, prefix);
  const conversions = new ConversionStore(ctx.redis, prefix);
  const workers = [
    defineWorker('pco-document', (payload, job) => processPcoDocument(ctx, store, payload, job), opts),
    defineWorker('v3-pdf', (payload, job) => processV3Pdf(ctx, pdfs, payload, job), opts),
    defineWorker('v3-convert', (payload, job) => processV3Conversion(ctx, conversions, payload, job), opts),
    defineWorker('count-pages', (payload) => processCountPages(ctx, payload), opts),
  ];
  for (const w of workers) w.on('error', (err) => ctx.logger.warn({ err: err.message, queue: w.name }, 'document worker error'));
  return workers;
};
