import type { AppContext } from '../context.js';
import type { EventHandlers } from '../orchestrator/events-consumer.js';
import { FilesDispatcher } from './dispatcher.js';
import { JobCompletion } from './job-completion.js';
import { FilesSettler } from './settle.js';
import { defaultOpenBucketUri, type OpenBucketUri } from './sources.js';

export interface FilesOrchestrator {
  /** Adds the Files API's handling of v3.pdf facts after the given handlers' own (pass v3NotificationHandlers). */
  withDocumentEnd(handlers: EventHandlers): EventHandlers;
  stop(): Promise<void>;
}

/**
 * The Files API's background parts: the dispatcher that feeds accepted files to the document
 * pipeline, and the sweep that sends job.completed when due. Start after the queues and the
 * webhook delivery worker; stop before them.
 */
export function startFilesOrchestrator(ctx: AppContext, opts: { open?: OpenBucketUri } = {}): FilesOrchestrator {
  const open = opts.open ?? defaultOpenBucketUri;
  const settler = new FilesSettler(ctx, open);
  const dispatcher = new FilesDispatcher(ctx, settler, open);
  const completion = new JobCompletion(ctx);
  dispatcher.start();
  completion.start();
  return {
    withDocumentEnd(handlers) {
      const before = handlers['v3.pdf'];
      return {
        ...handlers,
        'v3.pdf': async (e) => {
          await before?.(e);
          await settler.onDocumentEnd(e);
        },
      };
    },
    async stop() {
      await dispatcher.stop();
      await completion.stop();
    },
  };
}
