import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ApiError } from '../../core/errors.js';
import { hashId, randomId } from '../../core/ids.js';
import { PRIORITY } from '../../core/queue/index.js';
import { type JobSpec, TERMINAL_JOB_STATUSES, identityOf } from '../../core/pco/job-spec.js';
import { settleJob } from '../../core/pco/settle.js';
import type { JobRecord, PcoStore } from '../../core/pco/store.js';
import { checkUrl } from '../../core/ssrf.js';
import { openLocation } from '../../core/storage/index.js';
import type { AppContext } from '../context.js';
import { parseCreateBody, type RawCallback } from '../http/pco/create-body.js';

export type CallbackValidator = (raw: RawCallback) => Promise<JobSpec['callback']>;

const REQUEUE_CHUNK = 500;

/** Life cycle of private-cloud jobs (spec 3.8): create, cancel, retry, delete. */
export class PcoJobs {
  constructor(
    private readonly ctx: AppContext,
    readonly store: PcoStore,
    private readonly validateCallback: CallbackValidator,
  ) {}

  /** Validates and checks the storage, then creates the job (true) or finds the identical one (false). */
  async create(body: unknown): Promise<{ job: JobRecord; created: boolean }> {
    const spec = await this.validate(body);
    await this.checkStorage(spec);
    const jobId = hashId('job_', identityOf(spec), 24);
    const created = await this.store.createJob(jobId, spec, this.ctx.now());
    if (created) {
      await this.ctx.queues.enqueue('pco-enumerate', { jobId }, { jobId: `enum-${jobId}-0`, priority: PRIORITY[spec.policy.priority] });
    }
    return { job: (await this.store.getJob(jobId))!, created };
  }

  async validate(body: unknown): Promise<JobSpec> {
    const { spec, callback } = parseCreateBody(body, this.ctx.storageSettings);
    return { ...spec, callback: await this.validateCallback(callback) };
  }

  /** input_folder_unreadable / output_folder_unwritable, checked before anything is recorded. */
  async checkStorage(spec: JobSpec): Promise<void> {
    const settings = this.ctx.storageSettings;
    const inputUri = spec.input.folder ?? spec.input.files![0]!;
    // An Azure blob URL names its host: it passes the SSRF guard before any connection is made
    // (S3 and GCS hosts come from the operator's configuration, not from the request).
    await this.checkBlobHost(inputUri, 'input_folder_unreadable', 'read');
    await this.checkBlobHost(spec.output.folder, 'output_folder_unwritable', 'write to');
    try {
      const { storage, location } = openLocation(inputUri, settings);
      if (location.scheme === 'file' && spec.input.folder && !(await stat(fileURLToPath(inputUri))).isDirectory()) throw new Error('not a folder');
      if (spec.input.folder) {
        for await (const _ of storage.list({ prefix: location.key, recursive: false, pageSize: 1 })) break;
      } else if (!(await storage.head(location.key))) throw new Error(`no object ${location.key}`);
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw new ApiError('input_folder_unreadable', `Cannot read ${inputUri}: ${(err as Error).message}`);
    }
    try {
      const { storage, location } = openLocation(spec.output.folder, settings);
      const probe = `${location.key}_folio/.write-check-${randomId('', 6)}`;
      await storage.write(probe, '');
      await storage.delete(probe);
    } catch (err) {
      throw new ApiError('output_folder_unwritable', `Cannot write to ${spec.output.folder}: ${(err as Error).message}`);
    }
  }

  private async checkBlobHost(uri: string, id: 'input_folder_unreadable' | 'output_folder_unwritable', verb: string): Promise<void> {
    const settings = this.ctx.storageSettings;
    const { location } = openLocation(uri, settings);
    if (location.scheme !== 'azure' || settings.azureEmulator) return;
    await checkUrl(location.endpoint!, { allowPrivate: this.ctx.config.FOLIO_ALLOW_PRIVATE_URLS }).catch((err: Error) => {
      throw new ApiError(id, `Cannot ${verb} ${uri}: ${err.message}`);
    });
  }

  async get(jobId: string): Promise<JobRecord> {
    const job = await this.store.getJob(jobId);
    if (!job) throw new ApiError('job_not_found', `No job ${jobId}`);
    return job;
  }

  /** Stops enumeration, turns queued files into skipped (cancelled); in-flight files finish. */
  async cancel(jobId: string): Promise<JobRecord> {
    const job = await this.get(jobId);
    if (TERMINAL_JOB_STATUSES.includes(job.status) && !job.settling) return job;
    await this.store.updateJob(jobId, { cancelled: 1 });
    if (job.enum_status === 'running') {
      // The enumerator notices the flag between pages; mark it now so settlement need not wait.
      await this.store.updateJob(jobId, { enum_status: 'cancelled' });
    }
    let settle = false;
    for (;;) {
      const { ids } = await this.store.listFileIds(jobId, ['queued'], null, REQUEUE_CHUNK);
      if (!ids.length) break;
      for (const id of ids) {
        const r = await this.store.transition(jobId, id, ['queued'], 'skipped', {
          error_id: 'cancelled',
          error_message: 'Job cancelled',
          finished_at: new Date(this.ctx.now()).toISOString(),
        });
        settle ||= r.settleNow;
      }
    }
    settle ||= await this.store.claimSettle(jobId);
    if (settle) await this.settle(jobId);
    return this.get(jobId);
  }

  /** Requeues failed files (optionally only those with the given error ids). */
  async retry(jobId: string, errorIds?: string[]): Promise<{ job: JobRecord; requeued: number }> {
    const job = await this.get(jobId);
    if (!TERMINAL_JOB_STATUSES.includes(job.status) || job.settling || job.status === 'cancelled') {
      throw new ApiError(
        'job_not_retryable',
        `Job ${jobId} is ${job.settling ? 'processing' : job.status}; only a finished job that was not cancelled can be retried`,
      );
    }
    const { ids } = await this.store.listFileIds(jobId, ['failed'], null, 1_000_000);
    const files = (await Promise.all(ids.map((id) => this.store.getFile(jobId, id)))).filter(
      (f) => f && (!errorIds?.length || errorIds.includes(f.error_id ?? '')),
    );
    if (!files.length) throw new ApiError('job_not_retryable', 'No failed files match');
    // Reopen the job before requeueing so a fast worker cannot settle it against stale state; the
    // check and the move are one step, so of concurrent retries one wins and the others are 409.
    const generation = await this.store.reopenForRetry(jobId);
    if (!generation) throw new ApiError('job_not_retryable', `Job ${jobId} is being retried or is processing`);
    const priority = PRIORITY[job.spec.policy.priority];
    let requeued = 0;
    for (const f of files) {
      const sourceUri = f!.sourceUri;
      const moved = await this.store.transition(
        jobId,
        f!.document_id,
        ['failed'],
        'queued',
        { generation, error_id: null, error_message: null, page_errors: null, finished_at: null },
        { completed: -(f!.pages - f!.pages_failed), failed: -f!.pages_failed },
      );
      if (!moved.moved) continue;
      requeued++;
      await this.ctx.queues.enqueue(
        'pco-document',
        { jobId, documentId: f!.document_id, sourceUri, generation },
        { jobId: `${jobId}-${f!.document_id}-${generation}`, priority, attempts: job.spec.policy.max_retries + 1 },
      );
    }
    if (await this.store.claimSettle(jobId)) await this.settle(jobId);
    return { job: await this.get(jobId), requeued };
  }

  async delete(jobId: string): Promise<void> {
    await this.get(jobId);
    await this.store.deleteJob(jobId);
  }

  settle(jobId: string) {
    return settleJob(
      { store: this.store, redis: this.ctx.redis, prefix: this.ctx.config.FOLIO_QUEUE_PREFIX, settings: this.ctx.storageSettings, now: this.ctx.now },
      jobId,
    );
  }
}
