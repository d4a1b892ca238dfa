import type { FolioEvent } from '../../core/events.js';
import type { PcoStore } from '../../core/pco/store.js';
import type { AppContext } from '../context.js';
import { createDelivery } from '../webhooks/deliveries.js';
import type { EventHandlers } from './events-consumer.js';

type Ev<T extends FolioEvent['type']> = Extract<FolioEvent, { type: T }>;

/**
 * Turns worker facts into the 2.12 notification bodies of a job's callback. The delivery's dedupe
 * key is the event id, so a fact consumed twice still sends one notification.
 */
export function pcoNotificationHandlers(ctx: AppContext, store: PcoStore): EventHandlers {
  return {
    'pco.file': async (e: Ev<'pco.file'>) => {
      const job = await store.getJob(e.jobId);
      const cb = job?.spec.callback;
      const event = e.status === 'completed' ? 'file.completed' : 'file.error';
      if (!job || !cb || !cb.events.includes(event)) return;
      const f = await store.getFile(e.jobId, e.documentId);
      if (!f) return;
      const base = { event, file_id: f.document_id, status: f.status, num_pages: f.pages, num_pages_completed: f.pages - f.pages_failed };
      const payload =
        event === 'file.completed' ? base : { ...base, custom_id: null, job_id: e.jobId, error_info: { id: f.error_id, message: f.error_message } };
      await createDelivery(ctx, {
        scope: 'pco',
        url: cb.url,
        headers: cb.headers,
        event,
        payload,
        dedupeKey: e.eventId,
        jobId: e.jobId,
        fileId: f.document_id,
      });
    },
    'pco.job': async (e: Ev<'pco.job'>) => {
      const job = await store.getJob(e.jobId);
      const cb = job?.spec.callback;
      if (!job || !cb || !cb.events.includes('job.completed')) return;
      const c = job.counts;
      const payload = {
        event: 'job.completed',
        job_id: job.jobId,
        status: job.status,
        file_count: c.queued + c.processing + c.completed + c.failed + c.skipped,
        files_completed: c.completed,
        files_errored: c.failed,
        num_pages_sent: job.pages_completed + job.pages_failed,
        num_pages_completed: job.pages_completed,
      };
      await createDelivery(ctx, { scope: 'pco', url: cb.url, headers: cb.headers, event: 'job.completed', payload, dedupeKey: e.eventId, jobId: job.jobId });
    },
  };
}
