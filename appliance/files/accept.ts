import type Database from 'better-sqlite3';
import { ApiError } from '../../core/errors.js';
import { hashId } from '../../core/ids.js';
import { FilesLedger, type NewFile } from './ledger.js';
import { JobsLedger, MAX_FILES_PER_JOB } from './jobs-ledger.js';
import { chargeFiles, type MonthlyLimits } from './quotas.js';
import type { SubmissionSettings } from './submission.js';

/**
 * Acceptance of submissions. Each runs as one synchronous SQLite transaction (BEGIN IMMEDIATE):
 * the idempotency lookup, the job checks, the quota and the inserts happen with no await in
 * between, so two identical requests racing are serialised and the second one sees the first's
 * rows; the unique keys (files_jobs.job_id, files_idempotency) back that up across processes.
 */

export interface Owner {
  appId: string;
  groupId: string;
}

export interface AcceptContext {
  db: Database.Database;
  limits: MonthlyLimits;
  nowMs: number;
}

/** Idempotency scope of (job_id, custom_id) pairs. */
export const pairScope = (jobId: string) => `job:${jobId}`;
/** Idempotency scope of Idempotency-Key headers on single files: per application. */
export const headerScope = (appId: string) => `app:${appId}`;

/** The job id a batch sent with only an Idempotency-Key gets: the same for the same app and key (spec 4.10). */
export const derivedJobId = (appId: string, key: string) => hashId('job_', ['files-idempotency', appId, key]);

function settingsRow(s: SubmissionSettings, jobId: string | null) {
  return { job_id: jobId, request_args: JSON.stringify(s.requestArgs), image_output_mode: s.imageOutputMode, callback: s.callback ? JSON.stringify(s.callback) : null };
}

/** The job's callback for job.completed: the submission's, when it asks for that event. */
const jobCallback = (s: SubmissionSettings) => (s.callback?.events.includes('job.completed') ? JSON.stringify(s.callback) : null);

/**
 * POST /files/v1/uri and POST /files/v1: one file, optionally into an open job. A live file under
 * the same (job_id, custom_id) pair, or else the same Idempotency-Key, is returned instead
 * (created false). Whole-request failures throw.
 */
export function acceptSingle(
  ax: AcceptContext, owner: Owner, settings: SubmissionSettings, file: NewFile,
  opts: { jobId?: string; idempotencyKey?: string },
): { fileId: string; created: boolean } {
  const files = new FilesLedger(ax.db);
  const jobs = new JobsLedger(ax.db);
  const key = opts.jobId && file.custom_id ? { scope: pairScope(opts.jobId), key: file.custom_id } : opts.idempotencyKey ? { scope: headerScope(owner.appId), key: opts.idempotencyKey } : null;
  return ax.db
    .transaction(() => {
      const hit = key && files.liveByKey(key.scope, key.key);
      if (hit) return { fileId: hit.file_id, created: false };
      if (opts.jobId) {
        jobs.create({ job_id: opts.jobId, app_id: owner.appId, group_id: owner.groupId, replay_file_count: null }, ax.nowMs);
        const job = jobs.openFor(opts.jobId, owner.appId);
        if (job.file_count + 1 > MAX_FILES_PER_JOB) throw new ApiError('bad_request', `A job holds at most ${MAX_FILES_PER_JOB} files`, { field: 'job_id' });
        jobs.addFiles(opts.jobId, 1, 0, jobCallback(settings), ax.nowMs);
      }
      chargeFiles(ax.db, owner.appId, 1, ax.limits, ax.nowMs, 'quota_exceeded');
      const submissionId = files.addSubmission(settingsRow(settings, opts.jobId ?? null), ax.nowMs);
      files.addFile(file, { app_id: owner.appId, group_id: owner.groupId, job_id: opts.jobId ?? null, submission_id: submissionId }, ax.nowMs);
      if (key) files.bindKey(key.scope, key.key, file.file_id);
      return { fileId: file.file_id, created: true };
    })
    .immediate();
}

export interface BatchRequest {
  /** The explicit top-level job_id, or the one derived from an Idempotency-Key. */
  jobId: string;
  /** True when jobId was derived: an existing job is then a replay, answered as it was first. */
  replay: boolean;
  settings: SubmissionSettings;
  /** Each item planned, or an errored file (its `error` set). */
  files: NewFile[];
}

/**
 * POST /files/v1/jobs. Creates or extends the job and inserts every item in one transaction:
 * errored items become errored files; an item whose (job_id, custom_id) pair is live already adds
 * nothing; a custom_id repeated inside the request is an errored file. Returns {job_id, file_count}
 * with file_count echoing the items submitted.
 */
export function acceptBatch(ax: AcceptContext, owner: Owner, req: BatchRequest): { job_id: string; file_count: number; created: number } {
  const files = new FilesLedger(ax.db);
  const jobs = new JobsLedger(ax.db);
  return ax.db
    .transaction(() => {
      const fresh = jobs.create({ job_id: req.jobId, app_id: owner.appId, group_id: owner.groupId, replay_file_count: req.replay ? req.files.length : null }, ax.nowMs);
      if (!fresh && req.replay) {
        const job = jobs.get(req.jobId)!;
        if (job.app_id !== owner.appId) throw new ApiError('forbidden', `Job ${req.jobId} belongs to another application`);
        return { job_id: req.jobId, file_count: job.replay_file_count ?? job.file_count, created: 0 };
      }
      const job = jobs.openFor(req.jobId, owner.appId);
      const submissionId = files.addSubmission(settingsRow(req.settings, req.jobId), ax.nowMs);
      const row = { app_id: owner.appId, group_id: owner.groupId, job_id: req.jobId, submission_id: submissionId };
      const seen = new Set<string>();
      let added = 0;
      let errored = 0;
      for (const f of req.files) {
        let file = f;
        const customId = file.custom_id;
        if (customId && seen.has(customId)) {
          // The first item with this custom_id keeps the pair; a repeat is an errored file of its own.
          if (!file.error) file = { ...file, error: { id: 'bad_request', message: `custom_id ${customId} appears twice in this request` } };
        } else if (customId) {
          seen.add(customId);
          if (files.liveByKey(pairScope(req.jobId), customId)) continue;
          files.bindKey(pairScope(req.jobId), customId, file.file_id);
        }
        files.addFile(file, row, ax.nowMs);
        added++;
        if (file.error) errored++;
      }
      if (job.file_count + added > MAX_FILES_PER_JOB) {
        throw new ApiError('bad_request', `A job holds at most ${MAX_FILES_PER_JOB} files; it has ${job.file_count}`, { field: 'files' });
      }
      chargeFiles(ax.db, owner.appId, added - errored, ax.limits, ax.nowMs, 'quota_exceeded');
      jobs.addFiles(req.jobId, added, errored, jobCallback(req.settings), ax.nowMs);
      return { job_id: req.jobId, file_count: req.files.length, created: added };
    })
    .immediate();
}
