import type Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';

/** A file's status in the ledger (spec 3.1). split is only ever live (read from the document record). */
export type FileStatus = 'pending' | 'split' | 'completed' | 'error' | 'deleted';
/** Files that count for an idempotency hit (spec 3.2). */
export const LIVE_STATUSES: readonly FileStatus[] = ['pending', 'split', 'completed'];

export interface FileRow {
  file_id: string;
  app_id: string;
  group_id: string;
  job_id: string | null;
  custom_id: string | null;
  submission_id: number;
  status: FileStatus;
  source_uri: string | null;
  /** Key in Folio's own store of an uploaded (POST /files/v1) source. */
  upload_key: string | null;
  filename: string;
  destination_uri: string | null;
  /** As submitted (null when defaulted); output_basename is what outputs are named. */
  destination_basename: string | null;
  output_basename: string;
  s3_region: string | null;
  /** 0 waiting for the dispatcher, 1 handed to the document queue, -1 held: its submission is still being accepted. */
  dispatched: number;
  num_pages: number;
  num_pages_completed: number;
  /** JSON: extension → {status, error_id?} once settled. */
  formats: string | null;
  error: string | null;
  error_message: string | null;
  created_at: string;
  modified_at: string;
}

/** writing: a batch's items are still being inserted (held); accepted: committed. */
export type SubmissionState = 'writing' | 'accepted';

export interface SubmissionRow {
  submission_id: number;
  job_id: string | null;
  state: SubmissionState;
  /** JSON: the v3/pdf options plus conversion_formats, as the document record keeps them. */
  request_args: string;
  image_output_mode: string | null;
  /** JSON {url, headers, events} or null. */
  callback: string | null;
}

/** A file about to be inserted; `error` makes it an errored file at once (spec 4.10 per-item failure). */
export type NewFile = Pick<FileRow, 'file_id' | 'filename' | 'output_basename'> &
  Partial<Pick<FileRow, 'custom_id' | 'source_uri' | 'upload_key' | 'destination_uri' | 'destination_basename' | 's3_region'>> & {
    error?: { id: string; message: string };
  };

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * `n` file ids shaped like /v3/pdf ids (core/v3/keys.ts newV3Id: UTC day, then 20 random hex
 * digits), since a file is processed as a v3 document of the same id; `id(i)` makes the i-th when
 * asked, so a caller working in chunks spreads the cost. One random draw for all: 200,000 separate
 * draws take over a second. Every id keeps its 80 random bits, but they are handed out in
 * ascending order of their first 32: a batch written in chunks (accept.ts) then goes into the
 * files primary key as one ascending run, each chunk touching few of its pages, instead of every
 * chunk rewriting pages all over it (twice the time for 200,000 items, measured).
 */
export function newFileIds(n: number, nowMs: number): (i: number) => string {
  const day = new Date(nowMs).toISOString().slice(0, 10).replaceAll('-', '_');
  const bytes = randomBytes(10 * n);
  const heads = new Uint32Array(n);
  for (let i = 0; i < n; i++) heads[i] = bytes.readUInt32BE(10 * i);
  heads.sort();
  return (i) => `${day}_${heads[i]!.toString(16).padStart(8, '0')}${bytes.toString('hex', 10 * i + 4, 10 * i + 10)}`;
}

/** Reads and writes of the files table; every method is synchronous SQLite, so callers compose them in transactions. */
export class FilesLedger {
  private readonly byId: Database.Statement;
  private readonly insert: Database.Statement;
  private readonly idemGet: Database.Statement;
  private readonly idemGetVisible: Database.Statement;
  private readonly idemPut: Database.Statement;
  private readonly idemDel: Database.Statement;

  constructor(readonly db: Database.Database) {
    this.byId = db.prepare('SELECT * FROM files WHERE file_id = ?');
    this.insert = db.prepare(
      `INSERT INTO files (file_id, app_id, group_id, job_id, custom_id, submission_id, status, source_uri, upload_key, filename,
         destination_uri, destination_basename, output_basename, s3_region, dispatched, error, error_message, created_at, modified_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.idemGet = db.prepare('SELECT f.* FROM files_idempotency i JOIN files f ON f.file_id = i.file_id WHERE i.scope = ? AND i.idem_key = ?');
    this.idemGetVisible = db.prepare(
      'SELECT f.* FROM files_idempotency i JOIN files f ON f.file_id = i.file_id WHERE i.scope = ? AND i.idem_key = ? AND f.dispatched >= 0',
    );
    this.idemPut = db.prepare(
      'INSERT INTO files_idempotency (scope, idem_key, file_id) VALUES (?, ?, ?) ON CONFLICT (scope, idem_key) DO UPDATE SET file_id = excluded.file_id',
    );
    this.idemDel = db.prepare('DELETE FROM files_idempotency WHERE scope = ? AND idem_key = ?');
  }

  get(fileId: string): FileRow | undefined {
    return this.byId.get(fileId) as FileRow | undefined;
  }

  submission(id: number): SubmissionRow {
    return this.db.prepare('SELECT * FROM files_submissions WHERE submission_id = ?').get(id) as SubmissionRow;
  }

  addSubmission(s: Omit<SubmissionRow, 'submission_id' | 'state'>, nowMs: number, state: SubmissionState = 'accepted'): number {
    const r = this.db
      .prepare('INSERT INTO files_submissions (job_id, request_args, image_output_mode, callback, state, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(s.job_id, s.request_args, s.image_output_mode, s.callback, state, iso(nowMs));
    return Number(r.lastInsertRowid);
  }

  markAccepted(submissionId: number): void {
    this.db.prepare(`UPDATE files_submissions SET state = 'accepted' WHERE submission_id = ?`).run(submissionId);
  }

  /**
   * Inserts one file; an errored one is born settled, and the dispatcher only sends its file.error.
   * A `held` file is invisible to the dispatcher and to listings until releaseHeld.
   */
  addFile(f: NewFile, owner: { app_id: string; group_id: string; job_id: string | null; submission_id: number }, nowMs: number, held = false): void {
    const at = iso(nowMs);
    this.insert.run(
      f.file_id,
      owner.app_id,
      owner.group_id,
      owner.job_id,
      f.custom_id ?? null,
      owner.submission_id,
      f.error ? 'error' : 'pending',
      f.source_uri ?? null,
      f.upload_key ?? null,
      f.filename,
      f.destination_uri ?? null,
      f.destination_basename ?? null,
      f.output_basename,
      f.s3_region ?? null,
      held ? -1 : 0,
      f.error?.id ?? null,
      f.error?.message ?? null,
      at,
      at,
    );
  }

  /** Hands up to `limit` held files of a submission to the dispatcher; returns how many. */
  releaseHeld(submissionId: number, limit: number): number {
    return this.db
      .prepare('UPDATE files SET dispatched = 0 WHERE rowid IN (SELECT rowid FROM files WHERE submission_id = ? AND dispatched = -1 LIMIT ?)')
      .run(submissionId, limit).changes;
  }

  /** Deletes up to `limit` held files of a submission that will not be accepted; returns how many. */
  dropHeld(submissionId: number, limit: number): number {
    return this.db
      .prepare('DELETE FROM files WHERE rowid IN (SELECT rowid FROM files WHERE submission_id = ? AND dispatched = -1 LIMIT ?)')
      .run(submissionId, limit).changes;
  }

  deleteSubmission(submissionId: number): void {
    this.db.prepare('DELETE FROM files_submissions WHERE submission_id = ?').run(submissionId);
  }

  /** The live file an idempotency key points at, if any (an errored or deleted one is a miss, spec 3.2). */
  liveByKey(scope: string, key: string): FileRow | undefined {
    const row = this.idemGet.get(scope, key) as FileRow | undefined;
    return row && LIVE_STATUSES.includes(row.status) ? row : undefined;
  }

  /** The newest accepted file an idempotency key points at, live or not (GET .../files/{custom_id}). */
  byKey(scope: string, key: string): FileRow | undefined {
    return this.idemGetVisible.get(scope, key) as FileRow | undefined;
  }

  /** The file a key points at, live or not, held or not. */
  bound(scope: string, key: string): FileRow | undefined {
    return this.idemGet.get(scope, key) as FileRow | undefined;
  }

  bindKey(scope: string, key: string, fileId: string): void {
    this.idemPut.run(scope, key, fileId);
  }

  unbindKey(scope: string, key: string): void {
    this.idemDel.run(scope, key);
  }

  /**
   * Moves a pending file to its end state; false when it had settled already (a replayed event).
   * Job counters move in the same transaction.
   */
  settle(
    fileId: string,
    end: { status: 'completed' | 'error'; num_pages: number; num_pages_completed: number; formats: unknown; error?: { id: string; message: string } },
    nowMs: number,
  ): boolean {
    const moved = this.db
      .prepare(
        `UPDATE files SET status = ?, num_pages = ?, num_pages_completed = ?, formats = ?, error = ?, error_message = ?, modified_at = ?
         WHERE file_id = ? AND status IN ('pending', 'split')`,
      )
      .run(
        end.status,
        end.num_pages,
        end.num_pages_completed,
        JSON.stringify(end.formats ?? {}),
        end.error?.id ?? null,
        end.error?.message ?? null,
        iso(nowMs),
        fileId,
      );
    return moved.changes === 1;
  }

  markDeleted(fileId: string, nowMs: number): void {
    this.db.prepare(`UPDATE files SET status = 'deleted', modified_at = ? WHERE file_id = ?`).run(iso(nowMs), fileId);
  }

  /** Files handed to the document queue that have not settled yet. */
  inFlight(): number {
    return (this.db.prepare(`SELECT COUNT(*) AS n FROM files WHERE dispatched = 1 AND status IN ('pending', 'split')`).get() as { n: number }).n;
  }

  /** The oldest files not yet handed to the document queue. */
  undispatched(limit: number): FileRow[] {
    return this.db.prepare('SELECT * FROM files WHERE dispatched = 0 ORDER BY rowid LIMIT ?').all(limit) as FileRow[];
  }

  markDispatched(fileIds: string[]): void {
    const stmt = this.db.prepare('UPDATE files SET dispatched = 1 WHERE file_id = ?');
    this.db.transaction(() => {
      for (const id of fileIds) stmt.run(id);
    })();
  }

  /** One page of a group's files in submission order after `afterRowid`, by job and filename when given. */
  listGroupFiles(groupId: string, q: { jobId?: string; filename?: string; afterRowid: number; limit: number }): (FileRow & { rowid: number })[] {
    const byJob = q.jobId === undefined ? '' : 'AND job_id = @job';
    const byName = q.filename === undefined ? '' : 'AND filename = @filename';
    return this.db
      .prepare(
        `SELECT rowid, * FROM files WHERE group_id = @group ${byJob} ${byName} AND rowid > @after AND dispatched >= 0 AND status != 'deleted' ORDER BY rowid LIMIT @limit`,
      )
      .all({ group: groupId, job: q.jobId ?? null, filename: q.filename ?? null, after: q.afterRowid, limit: q.limit }) as (FileRow & { rowid: number })[];
  }

  /** One page of a job's files in submission order, after `afterRowid`; the ledger's pending includes split files. */
  listJobFiles(jobId: string, q: { status?: FileStatus; afterRowid: number; limit: number }): (FileRow & { rowid: number })[] {
    const byStatus = q.status ? 'AND status = @status' : '';
    return this.db
      .prepare(`SELECT rowid, * FROM files WHERE job_id = @job ${byStatus} AND rowid > @after AND dispatched >= 0 ORDER BY rowid LIMIT @limit`)
      .all({ job: jobId, status: q.status, after: q.afterRowid, limit: q.limit }) as (FileRow & { rowid: number })[];
  }
}
