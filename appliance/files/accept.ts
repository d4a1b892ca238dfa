import type Database from 'better-sqlite3';
import { ApiError } from '../../core/errors.js';
import { hashId } from '../../core/ids.js';
import { FilesLedger, LIVE_STATUSES, type NewFile } from './ledger.js';
import { JobsLedger, MAX_FILES_PER_JOB } from './jobs-ledger.js';
import { chargeFiles, checkMonthlyQuota, type MonthlyLimits } from './quotas.js';
import type { SubmissionSettings } from './submission.js';

/**
 * Acceptance of submissions. Every acceptance into one job runs in turn (inTurn, in this process,
 * the appliance being the ledger's only writer), so two identical requests racing are serialised
 * and the second one sees what the first accepted; the unique keys (files_jobs.job_id,
 * files_idempotency) back that up. A single file is one SQLite transaction (BEGIN IMMEDIATE). A
 * batch of up to 200,000 items is written in chunks, yielding to the event loop between them:
 * 1. begin: the refusals that need no item written (replay, job state, sure overflows), and a
 *    submission row in state 'writing';
 * 2. write: the items, ACCEPT_CHUNK_ROWS per transaction, as held files (dispatched = -1) that no
 *    reader sees: not the dispatcher, not the job's listings, not GET .../files/{custom_id};
 * 3. commit: one short transaction creates or re-checks the job, checks the 200,000 limit and the
 *    monthly quota against the exact count, moves the job's counters and marks the submission
 *    'accepted': the point where the whole batch is accepted or not. Until its files are settled
 *    (4 comes first) the job cannot complete, finalized or not;
 * 4. release: the held files go to the dispatcher and the job's listings, in chunks.
 * A refusal at 3 (or any failure before it) undoes 2 in chunks: the files go and the custom_id
 * keys they took point back where they did. After a crash, recoverAcceptances finishes the work.
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

/** Files written per transaction of a batch: each holds the event loop for a few milliseconds. */
export const ACCEPT_CHUNK_ROWS = 2_000;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

// The acceptance running or waiting last, per job, per ledger.
const turns = new WeakMap<Database.Database, Map<string, Promise<void>>>();

/** Runs `run` once every acceptance into `jobId` started before it has ended. */
function inTurn<T>(db: Database.Database, jobId: string, run: () => T | Promise<T>): Promise<T> {
  let queue = turns.get(db);
  if (!queue) turns.set(db, (queue = new Map()));
  const result = (queue.get(jobId) ?? Promise.resolve()).then(run);
  const tail = result.then(
    () => undefined,
    () => undefined,
  );
  queue.set(jobId, tail);
  void tail.then(() => {
    if (queue.get(jobId) === tail) queue.delete(jobId);
  });
  return result;
}

/** Idempotency scope of (job_id, custom_id) pairs. */
export const pairScope = (jobId: string) => `job:${jobId}`;
/** Idempotency scope of Idempotency-Key headers on single files: per application. */
export const headerScope = (appId: string) => `app:${appId}`;

/** The job id a batch sent with only an Idempotency-Key gets: the same for the same app and key (spec 4.10). */
export const derivedJobId = (appId: string, key: string) => hashId('job_', ['files-idempotency', appId, key]);

function settingsRow(s: SubmissionSettings, jobId: string | null) {
  return {
    job_id: jobId,
    request_args: JSON.stringify(s.requestArgs),
    image_output_mode: s.imageOutputMode,
    callback: s.callback ? JSON.stringify(s.callback) : null,
  };
}

/** The job's callback for job.completed: the submission's, when it asks for that event. */
const jobCallback = (s: SubmissionSettings) => (s.callback?.events.includes('job.completed') ? JSON.stringify(s.callback) : null);

/**
 * POST /files/v1/uri and POST /files/v1: one file, optionally into an open job. A live file under
 * the same (job_id, custom_id) pair, or else the same Idempotency-Key, is returned instead
 * (created false). Whole-request failures throw.
 */
export function acceptSingle(
  ax: AcceptContext,
  owner: Owner,
  settings: SubmissionSettings,
  file: NewFile,
  opts: { jobId?: string; idempotencyKey?: string },
): Promise<{ fileId: string; created: boolean }> {
  const accept = () => acceptSingleNow(ax, owner, settings, file, opts);
  return opts.jobId ? inTurn(ax.db, opts.jobId, accept) : Promise.resolve().then(accept);
}

function acceptSingleNow(
  ax: AcceptContext,
  owner: Owner,
  settings: SubmissionSettings,
  file: NewFile,
  opts: { jobId?: string; idempotencyKey?: string },
): { fileId: string; created: boolean } {
  const files = new FilesLedger(ax.db);
  const jobs = new JobsLedger(ax.db);
  const key =
    opts.jobId && file.custom_id
      ? { scope: pairScope(opts.jobId), key: file.custom_id }
      : opts.idempotencyKey
        ? { scope: headerScope(owner.appId), key: opts.idempotencyKey }
        : null;
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

export interface BatchResult {
  job_id: string;
  /** The items submitted (or, for a replay, those of the submission that created the job). */
  file_count: number;
  /** Files added to the ledger by this request. */
  created: number;
}

const tooMany = (has: number) => new ApiError('bad_request', `A job holds at most ${MAX_FILES_PER_JOB} files; it has ${has}`, { field: 'files' });

/**
 * POST /files/v1/jobs. Creates or extends the job with every item, in the steps described at the
 * top of this file: errored items become errored files; an item whose (job_id, custom_id) pair is
 * live already adds nothing; a custom_id repeated inside the request is an errored file. Returns
 * {job_id, file_count} with file_count echoing the items submitted. Throws, having accepted
 * nothing, on a whole-request refusal.
 */
export function acceptBatch(ax: AcceptContext, owner: Owner, req: BatchRequest, opts: { chunkRows?: number } = {}): Promise<BatchResult> {
  return inTurn(ax.db, req.jobId, () => writeBatch(ax, owner, req, opts.chunkRows ?? ACCEPT_CHUNK_ROWS));
}

async function writeBatch(ax: AcceptContext, owner: Owner, req: BatchRequest, chunkRows: number): Promise<BatchResult> {
  const files = new FilesLedger(ax.db);
  const jobs = new JobsLedger(ax.db);
  const scope = pairScope(req.jobId);
  const replayOf = (job: { app_id: string; replay_file_count: number | null; file_count: number }): BatchResult => {
    if (job.app_id !== owner.appId) throw new ApiError('forbidden', `Job ${req.jobId} belongs to another application`);
    return { job_id: req.jobId, file_count: job.replay_file_count ?? job.file_count, created: 0 };
  };

  // 1. begin
  const begun = ax.db
    .transaction((): BatchResult | number => {
      const existing = jobs.get(req.jobId);
      if (existing && req.replay) return replayOf(existing);
      const has = existing ? jobs.openFor(req.jobId, owner.appId).file_count : 0;
      // Items without custom_id are added whatever the ledger holds: what they pass is refused now.
      let sure = 0;
      let sureCharged = 0;
      for (const f of req.files) {
        if (f.custom_id) continue;
        sure++;
        if (!f.error) sureCharged++;
      }
      if (has + sure > MAX_FILES_PER_JOB) throw tooMany(has);
      checkMonthlyQuota(ax.db, owner.appId, sureCharged, ax.limits, ax.nowMs, 'quota_exceeded');
      return files.addSubmission(settingsRow(req.settings, req.jobId), ax.nowMs, 'writing');
    })
    .immediate();
  if (typeof begun !== 'number') return begun;
  const submissionId = begun;

  // 2. write, remembering each key taken over so that an undo can give it back
  const row = { app_id: owner.appId, group_id: owner.groupId, job_id: req.jobId, submission_id: submissionId };
  const seen = new Set<string>();
  const taken = new Map<string, string | null>();
  let added = 0;
  let errored = 0;
  let commit: { result: BatchResult; replayed: boolean };
  try {
    for (let from = 0; from < req.files.length; from += chunkRows) {
      const chunk = req.files.slice(from, from + chunkRows);
      ax.db
        .transaction(() => {
          for (const f of chunk) {
            let file = f;
            const customId = file.custom_id;
            if (customId && seen.has(customId)) {
              // The first item with this custom_id keeps the pair; a repeat is an errored file of its own.
              if (!file.error) file = { ...file, error: { id: 'bad_request', message: `custom_id ${customId} appears twice in this request` } };
            } else if (customId) {
              seen.add(customId);
              const bound = files.bound(scope, customId);
              if (bound && LIVE_STATUSES.includes(bound.status)) continue;
              taken.set(customId, bound?.file_id ?? null);
              files.bindKey(scope, customId, file.file_id);
            }
            files.addFile(file, row, ax.nowMs, true);
            added++;
            if (file.error) errored++;
          }
        })
        .immediate();
      await yieldToLoop();
    }

    // 3. commit
    commit = ax.db
      .transaction(() => {
        const fresh = jobs.create(
          { job_id: req.jobId, app_id: owner.appId, group_id: owner.groupId, replay_file_count: req.replay ? req.files.length : null },
          ax.nowMs,
        );
        // Only another process can have created a derived job meanwhile: its answer stands, this submission goes.
        if (!fresh && req.replay) return { result: replayOf(jobs.get(req.jobId)!), replayed: true };
        const job = jobs.openFor(req.jobId, owner.appId);
        if (job.file_count + added > MAX_FILES_PER_JOB) throw tooMany(job.file_count);
        chargeFiles(ax.db, owner.appId, added - errored, ax.limits, ax.nowMs, 'quota_exceeded');
        jobs.addFiles(req.jobId, added, errored, jobCallback(req.settings), ax.nowMs);
        files.markAccepted(submissionId);
        return { result: { job_id: req.jobId, file_count: req.files.length, created: added }, replayed: false };
      })
      .immediate();
  } catch (err) {
    // Should the undo fail too (the ledger itself failing), recoverAcceptances ends it at the next start.
    await undoBatch(files, scope, submissionId, taken, chunkRows).catch(() => undefined);
    throw err;
  }
  if (commit.replayed) {
    await undoBatch(files, scope, submissionId, taken, chunkRows);
    return commit.result;
  }

  // 4. release
  while (files.releaseHeld(submissionId, chunkRows) > 0) await yieldToLoop();
  return commit.result;
}

/** Removes a batch that will not be accepted: keys taken over point back, held files and the submission go. */
async function undoBatch(files: FilesLedger, scope: string, submissionId: number, taken: Map<string, string | null>, chunkRows: number): Promise<void> {
  const keys = [...taken];
  for (let from = 0; from < keys.length; from += chunkRows) {
    files.db.transaction(() => {
      for (const [key, before] of keys.slice(from, from + chunkRows)) {
        if (before === null) files.unbindKey(scope, key);
        else files.bindKey(scope, key, before);
      }
    })();
    await yieldToLoop();
  }
  while (files.dropHeld(submissionId, chunkRows) > 0) await yieldToLoop();
  files.deleteSubmission(submissionId);
}

/**
 * Finishes the batches a crash interrupted; run once at start, before any request is taken. A
 * batch still 'writing' had answered nothing and is undone: its held files go with the custom_id
 * keys bound to them (a key it had taken over from an errored file is then unbound instead of
 * pointing back). An 'accepted' one had committed: its remaining held files are released.
 */
export function recoverAcceptances(db: Database.Database): { undone: number; released: number } {
  const files = new FilesLedger(db);
  return db.transaction(() => {
    const writing = db.prepare(`SELECT submission_id, job_id FROM files_submissions WHERE state = 'writing'`).all() as {
      submission_id: number;
      job_id: string;
    }[];
    for (const s of writing) {
      db.prepare('DELETE FROM files_idempotency WHERE scope = ? AND file_id IN (SELECT file_id FROM files WHERE submission_id = ? AND dispatched = -1)').run(
        pairScope(s.job_id),
        s.submission_id,
      );
      files.dropHeld(s.submission_id, -1); // LIMIT -1: no limit
      files.deleteSubmission(s.submission_id);
    }
    // What is still held now belongs to committed submissions.
    const released = db.prepare('UPDATE files SET dispatched = 0 WHERE dispatched = -1').run().changes;
    return { undone: writing.length, released };
  })();
}
