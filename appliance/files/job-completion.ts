import type { AppContext } from '../context.js';
import { createDelivery } from '../webhooks/deliveries.js';
import { JobsLedger, type JobRow } from './jobs-ledger.js';
import { filesSecretScope } from './webhook-config/index.js';
import type { FilesCallback } from './submission.js';

/** How often due jobs are looked for; small against the one-to-two-minute delay of spec 6.1. */
const POLL_MS = 2000;

/** The 2.12 job.completed body. */
export function jobCompletedPayload(job: JobRow) {
  return {
    event: 'job.completed',
    job_id: job.job_id,
    status: 'completed',
    file_count: job.file_count,
    files_completed: job.files_completed,
    files_errored: job.files_errored,
    num_pages_sent: job.num_pages_sent,
    num_pages_completed: job.num_pages_completed,
  };
}

/**
 * Completes finalized jobs whose job.completed is due (JobsLedger.scheduleCompletionIfSettled set
 * the time, after the last file settled or at finalize): the job moves to completed and, when a
 * submission asked for it, job.completed is queued once (dedupe key job.completed:<job_id>). The
 * due time lives in SQLite, so a restart in between still sends it. An unfinalized job is never due.
 */
export class JobCompletion {
  private readonly jobs: JobsLedger;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly ctx: AppContext) {
    this.jobs = new JobsLedger(ctx.db);
  }

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.sweep()
        .catch((err: Error) => this.ctx.logger.warn({ err: err.message }, 'job completion sweep failed'))
        .finally(() => (this.running = undefined));
    }, POLL_MS);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  async sweep(): Promise<void> {
    for (const job of this.jobs.due(this.ctx.now())) {
      if (job.callback) {
        const cb = JSON.parse(job.callback) as FilesCallback;
        await createDelivery(this.ctx, {
          scope: filesSecretScope(job.app_id),
          url: cb.url,
          headers: cb.headers,
          event: 'job.completed',
          payload: jobCompletedPayload(job),
          dedupeKey: `job.completed:${job.job_id}`,
          jobId: job.job_id,
        });
      }
      this.jobs.markCompleted(job.job_id, this.ctx.now());
    }
  }
}
