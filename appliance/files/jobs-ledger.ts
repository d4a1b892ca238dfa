import type Database from 'better-sqlite3';
import { ApiError } from '../../core/errors.js';

/**
 * open: files may be added; finalized: closed, documents still settling or job.completed not yet
 * due; completed: finalized, every document settled and job.completed sent (spec 3.3).
 */
export type JobStatus = 'open' | 'finalized' | 'completed';

/** Files per job across all submissions (spec 8). */
export const MAX_FILES_PER_JOB = 200_000;

export interface JobRow {
  job_id: string;
  app_id: string;
  group_id: string;
  status: JobStatus;
  file_count: number;
  files_completed: number;
  files_errored: number;
  num_pages_sent: number;
  num_pages_completed: number;
  /** JSON {url, headers, events} of the latest submission that asked for job.completed. */
  callback: string | null;
  /** file_count answered to the submission that created a job from an Idempotency-Key, for its replays. */
  replay_file_count: number | null;
  created_at: string;
  modified_at: string;
  completion_due_at: number | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The files_jobs table. Synchronous, so callers compose these in one transaction. */
export class JobsLedger {
  constructor(readonly db: Database.Database) {}

  get(jobId: string): JobRow | undefined {
    return this.db.prepare('SELECT * FROM files_jobs WHERE job_id = ?').get(jobId) as JobRow | undefined;
  }

  /** Creates the job when it does not exist; returns whether it did. */
  create(job: Pick<JobRow, 'job_id' | 'app_id' | 'group_id' | 'replay_file_count'>, nowMs: number): boolean {
    const r = this.db
      .prepare(`INSERT INTO files_jobs (job_id, app_id, group_id, replay_file_count, created_at, modified_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`)
      .run(job.job_id, job.app_id, job.group_id, job.replay_file_count, iso(nowMs), iso(nowMs));
    return r.changes === 1;
  }

  /** The job a submission may add files to: same app, still open; else 403 forbidden or 409 job_finalized. */
  openFor(jobId: string, appId: string): JobRow {
    const job = this.get(jobId);
    if (!job) throw new ApiError('not_found', `No job ${jobId}`);
    if (job.app_id !== appId) throw new ApiError('forbidden', `Job ${jobId} belongs to another application`);
    if (job.status !== 'open') throw new ApiError('job_finalized', `Job ${jobId} is finalized; start a new job`, { job_id: jobId });
    return job;
  }

  addFiles(jobId: string, added: number, errored: number, callback: string | null, nowMs: number): void {
    this.db
      .prepare(
        `UPDATE files_jobs SET file_count = file_count + ?, files_errored = files_errored + ?, callback = COALESCE(?, callback), modified_at = ? WHERE job_id = ?`,
      )
      .run(added, errored, callback, iso(nowMs), jobId);
  }

  /** Counts one settled file; `pages` are its pages to process and pages done. */
  countSettled(jobId: string, ok: boolean, pages: { sent: number; completed: number }, nowMs: number): void {
    this.db
      .prepare(
        `UPDATE files_jobs SET files_completed = files_completed + ?, files_errored = files_errored + ?, num_pages_sent = num_pages_sent + ?,
           num_pages_completed = num_pages_completed + ?, modified_at = ? WHERE job_id = ?`,
      )
      .run(ok ? 1 : 0, ok ? 0 : 1, pages.sent, pages.completed, iso(nowMs), jobId);
  }

  /** Closes an open job (a second finalize is a no-op); returns the row after. */
  finalize(jobId: string, nowMs: number): JobRow {
    this.db.prepare(`UPDATE files_jobs SET status = 'finalized', modified_at = ? WHERE job_id = ? AND status = 'open'`).run(iso(nowMs), jobId);
    return this.get(jobId)!;
  }

  /**
   * Once a finalized job has every file settled, job.completed becomes due `delayMs` later
   * (spec 6.1: one to two minutes). Set once: later calls keep the first due time.
   */
  scheduleCompletionIfSettled(jobId: string, delayMs: number, nowMs: number): void {
    this.db
      .prepare(
        `UPDATE files_jobs SET completion_due_at = ? WHERE job_id = ? AND status = 'finalized' AND completion_due_at IS NULL
           AND files_completed + files_errored >= file_count`,
      )
      .run(nowMs + delayMs, jobId);
  }

  /** Finalized jobs whose job.completed is due. */
  due(nowMs: number, limit = 100): JobRow[] {
    return this.db
      .prepare(`SELECT * FROM files_jobs WHERE status = 'finalized' AND completion_due_at IS NOT NULL AND completion_due_at <= ? LIMIT ?`)
      .all(nowMs, limit) as JobRow[];
  }

  markCompleted(jobId: string, nowMs: number): boolean {
    return (
      this.db.prepare(`UPDATE files_jobs SET status = 'completed', modified_at = ? WHERE job_id = ? AND status = 'finalized'`).run(iso(nowMs), jobId)
        .changes === 1
    );
  }

  /** One page of a group's jobs, newest first, created in [from, to), before `beforeRowid`. */
  list(groupId: string, q: { from?: string; to?: string; beforeRowid: number; limit: number }): (JobRow & { rowid: number })[] {
    return this.db
      .prepare(
        `SELECT rowid, * FROM files_jobs WHERE group_id = @group AND rowid < @before
           AND (@from IS NULL OR created_at >= @from) AND (@to IS NULL OR created_at < @to) ORDER BY rowid DESC LIMIT @limit`,
      )
      .all({ group: groupId, before: q.beforeRowid, from: q.from ?? null, to: q.to ?? null, limit: q.limit }) as (JobRow & { rowid: number })[];
  }
}
