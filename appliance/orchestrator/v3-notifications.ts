import { QueueEvents } from 'bullmq';
import { emitEvent } from '../../core/events.js';
import type { FolioEvent } from '../../core/events.js';
import { TASKS } from '../../core/queue/index.js';
import { bullmqConnection } from '../../core/redis.js';
import { OPEN_PDF_STATUSES, PdfStore } from '../../core/v3/pdf-store.js';
import type { AppContext } from '../context.js';
import { filesSecretScope } from '../files/webhook-config/index.js';
import { OcrHistory } from '../results/ocr-history.js';
import { recordPdfPages } from '../results/pdf-pages.js';
import { createDelivery } from '../webhooks/deliveries.js';
import type { EventHandlers } from './events-consumer.js';

type Ev<T extends FolioEvent['type']> = Extract<FolioEvent, { type: T }>;

/**
 * Turns a /v3/pdf document's end (the worker's v3.pdf fact) into the 2.12 file.completed or
 * file.error body of its callback, signed with the submitting app's secret (one per application,
 * spec 4.12). The dedupe key is the event id, so a fact consumed twice sends one notification.
 * A completed document's pages join the image history first (GET /v3/ocr-results?pdf_id=,
 * appliance/results/pdf-pages.ts), so a client told of the end finds them.
 */
export function v3NotificationHandlers(ctx: AppContext, store = new PdfStore(ctx.redis, ctx.config.FOLIO_QUEUE_PREFIX)): EventHandlers {
  const history = new OcrHistory(ctx.db);
  return {
    'v3.pdf': async (e: Ev<'v3.pdf'>) => {
      const rec = await store.get(e.pdfId);
      if (rec)
        await recordPdfPages(ctx, history, rec).catch((err: Error) =>
          ctx.logger.warn({ pdf_id: rec.pdf_id, err: err.message }, 'document pages not added to the image history'),
        );
      const cb = rec?.callback;
      const event = e.status === 'completed' ? 'file.completed' : 'file.error';
      if (!rec || !cb || !cb.events.includes(event)) return; // deleted since, or not subscribed
      const base = { event, file_id: rec.pdf_id, status: rec.status, num_pages: rec.num_pages, num_pages_completed: rec.num_pages_completed };
      const payload = event === 'file.completed' ? base : { ...base, custom_id: null, job_id: null, error_info: rec.error_info };
      // The app's Files API secret (GET /files/v1/webhook-config): one secret per application signs both surfaces.
      await createDelivery(ctx, {
        scope: filesSecretScope(rec.app_id),
        url: cb.url,
        headers: cb.headers,
        event,
        payload,
        dedupeKey: e.eventId,
        fileId: rec.pdf_id,
      });
    },
  };
}

/**
 * Ends /v3/pdf documents whose task BullMQ gave up on without the worker recording an end (a
 * worker killed mid-document more often than the stalled limit, or Redis failing at the end):
 * status error sys_exception, and the v3.pdf fact so file.error is still sent. Pass it to
 * startOrchestrator's `extra`.
 */
export function watchLostV3Pdfs(ctx: AppContext, redisUrl: string): { stop(): Promise<void> } {
  const prefix = ctx.config.FOLIO_QUEUE_PREFIX;
  const store = new PdfStore(ctx.redis, prefix, ctx.now);
  const events = new QueueEvents(TASKS['v3-pdf'].queue, { connection: bullmqConnection(redisUrl), prefix });
  events.on('error', () => undefined);
  events.on('failed', ({ jobId, failedReason }) => {
    const m = /^v3pdf-(.+)$/.exec(jobId);
    if (!m) return;
    const pdfId = m[1]!;
    const error_info = { id: 'sys_exception', message: `processing gave up: ${failedReason}`.slice(0, 500), pdf_id: pdfId };
    void store
      .transition(pdfId, OPEN_PDF_STATUSES, 'error', { error_info })
      .then(async (moved) => {
        if (moved) await emitEvent(ctx.redis, prefix, { type: 'v3.pdf', eventId: `v3pdf:${pdfId}`, pdfId, status: 'error' });
      })
      .catch((err: Error) => ctx.logger.warn({ err: err.message, pdf_id: pdfId }, 'could not end a lost v3 document'));
  });
  return { stop: () => events.close() };
}
