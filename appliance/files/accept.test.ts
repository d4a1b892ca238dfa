import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../core/errors.js';
import { openDatabase } from '../db.js';
import { acceptBatch, acceptSingle, type AcceptContext, type BatchRequest, derivedJobId, pairScope, recoverAcceptances } from './accept.js';
import { JobsLedger } from './jobs-ledger.js';
import { FilesLedger, type NewFile, newFileIds } from './ledger.js';
import type { SubmissionSettings } from './submission.js';

const SETTINGS: SubmissionSettings = { requestArgs: {}, conversionFormats: {}, imageOutputMode: null, callback: null };
const OWNER = { appId: 'app_1', groupId: 'g' };
// A few rows per transaction, so that even small batches are written over several turns of the event loop.
const CHUNK = { chunkRows: 3 };

let nextId = 0;
function items(n: number, over: (i: number) => Partial<NewFile> = () => ({})): NewFile[] {
  const id = newFileIds(n, Date.now());
  return Array.from({ length: n }, (_, i) => ({
    file_id: `${id(i)}`,
    filename: `f-${nextId++}.pdf`,
    output_basename: id(i),
    source_uri: `https://docs.example/${i}.pdf`,
    ...over(i),
  }));
}

describe('acceptBatch written in chunks', () => {
  let db: Database.Database;
  let ax: AcceptContext;
  let files: FilesLedger;
  let jobs: JobsLedger;
  const count = (sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n;
  const batch = (over: Partial<BatchRequest>): BatchRequest => ({ jobId: 'job_x', replay: false, settings: SETTINGS, files: items(10), ...over });

  beforeEach(() => {
    db = openDatabase(':memory:');
    ax = { db, limits: { pageMonthlyLimit: 0, fileMonthlyLimit: 0 }, nowMs: Date.now() };
    files = new FilesLedger(db);
    jobs = new JobsLedger(db);
  });
  afterEach(() => db.close());

  it('shows nothing of a batch until it commits: no job, no listed or dispatchable file, no custom_id', async () => {
    const accepting = acceptBatch(ax, OWNER, batch({ files: items(10, (i) => ({ custom_id: `c${i}` })) }), CHUNK);
    await new Promise((r) => setImmediate(r)); // the first chunks are written
    expect(count('SELECT COUNT(*) AS n FROM files')).toBeGreaterThan(0);
    expect(jobs.get('job_x')).toBeUndefined();
    expect(files.undispatched(100)).toEqual([]);
    expect(files.listJobFiles('job_x', { afterRowid: 0, limit: 100 })).toEqual([]);
    expect(files.byKey(pairScope('job_x'), 'c0')).toBeUndefined();
    expect(await accepting).toEqual({ job_id: 'job_x', file_count: 10, created: 10 });
    expect(jobs.get('job_x')).toMatchObject({ status: 'open', file_count: 10, files_errored: 0 });
    expect(files.undispatched(100)).toHaveLength(10);
    expect(files.listJobFiles('job_x', { afterRowid: 0, limit: 100 }).map((f) => f.filename)).toEqual(files.undispatched(100).map((f) => f.filename));
    expect(files.byKey(pairScope('job_x'), 'c9')?.status).toBe('pending');
  });

  it('makes two identical racing requests with one Idempotency-Key one job, its files inserted once', async () => {
    const jobId = derivedJobId(OWNER.appId, 'key-1');
    const req = batch({ jobId, replay: true, files: items(20) });
    const [a, b] = await Promise.all([acceptBatch(ax, OWNER, req, CHUNK), acceptBatch(ax, OWNER, { ...req, files: items(20) }, CHUNK)]);
    expect(a).toEqual({ job_id: jobId, file_count: 20, created: 20 });
    expect(b).toEqual({ job_id: jobId, file_count: 20, created: 0 });
    expect(count('SELECT COUNT(*) AS n FROM files WHERE job_id = ?', jobId)).toBe(20);
    expect(count('SELECT COUNT(*) AS n FROM files_submissions')).toBe(1);
    expect(jobs.get(jobId)).toMatchObject({ file_count: 20, replay_file_count: 20 });
  });

  it('keeps (job_id, custom_id) pairs unique when two batches with the same items race', async () => {
    const mk = () => batch({ files: items(12, (i) => ({ custom_id: `c${i % 10}` })) }); // c0 and c1 repeat inside each request
    const [a, b] = await Promise.all([acceptBatch(ax, OWNER, mk(), CHUNK), acceptBatch(ax, OWNER, mk(), CHUNK)]);
    expect(a).toMatchObject({ file_count: 12, created: 12 });
    expect(b).toMatchObject({ file_count: 12, created: 2 }); // only its two repeats, as errored files
    expect(count(`SELECT COUNT(*) AS n FROM files WHERE status = 'pending'`)).toBe(10);
    expect(jobs.get('job_x')).toMatchObject({ file_count: 14, files_errored: 4 });
  });

  it('does not let a batch that is then refused hide its custom_ids from the next one', async () => {
    ax = { ...ax, limits: { pageMonthlyLimit: 0, fileMonthlyLimit: 5 } };
    const refused = acceptBatch(ax, OWNER, batch({ files: items(6, (i) => ({ custom_id: `c${i}` })) }), CHUNK);
    const next = acceptBatch(ax, OWNER, batch({ files: items(3, (i) => ({ custom_id: `c${i}` })) }), CHUNK);
    await expect(refused).rejects.toMatchObject({ id: 'quota_exceeded' });
    expect(await next).toMatchObject({ created: 3 });
    expect(jobs.get('job_x')!.file_count).toBe(3);
  });

  it('runs a single-file submission into the job after the batch writing into it', async () => {
    const accepting = acceptBatch(ax, OWNER, batch({ files: items(9, (i) => ({ custom_id: `c${i}` })) }), CHUNK);
    const [single] = items(1, () => ({ custom_id: 'c4' }));
    const res = await acceptSingle(ax, OWNER, SETTINGS, single!, { jobId: 'job_x' });
    await accepting;
    expect(res).toEqual({ fileId: files.byKey(pairScope('job_x'), 'c4')!.file_id, created: false });
    expect(count('SELECT COUNT(*) AS n FROM files')).toBe(9);
  });

  it('accepts nothing of a batch the job was finalized under, and gives back the keys it took', async () => {
    await acceptBatch(ax, OWNER, batch({ files: items(1, () => ({ custom_id: 'old', error: { id: 'bad_request', message: 'x' } })) }));
    const before = files.byKey(pairScope('job_x'), 'old')!;
    const accepting = acceptBatch(ax, OWNER, batch({ files: items(9, (i) => ({ custom_id: i ? `n${i}` : 'old' })) }), CHUNK);
    await new Promise((r) => setImmediate(r));
    jobs.finalize('job_x', Date.now());
    await expect(accepting).rejects.toMatchObject({ id: 'job_finalized' });
    expect(count('SELECT COUNT(*) AS n FROM files')).toBe(1);
    expect(count('SELECT COUNT(*) AS n FROM files_submissions')).toBe(1);
    expect(files.byKey(pairScope('job_x'), 'old')?.file_id).toBe(before.file_id);
    expect(files.bound(pairScope('job_x'), 'n1')).toBeUndefined();
    expect(jobs.get('job_x')).toMatchObject({ file_count: 1, files_errored: 1 });
  });

  it('refuses a batch past the monthly file quota as a whole, counting only what it would add', async () => {
    ax = { ...ax, limits: { pageMonthlyLimit: 0, fileMonthlyLimit: 10 } };
    const first = items(6, (i) => ({ custom_id: `c${i}` }));
    await acceptBatch(ax, OWNER, batch({ files: first }), CHUNK);
    // The same six again add nothing, so they pass even with four files left this month.
    expect(
      await acceptBatch(ax, OWNER, batch({ files: first.map((f, i) => ({ ...f, file_id: items(1)[0]!.file_id, custom_id: `c${i}` })) }), CHUNK),
    ).toMatchObject({ created: 0 });
    const over = acceptBatch(ax, OWNER, batch({ files: items(5, (i) => ({ custom_id: `d${i}` })) }), CHUNK);
    const err = await over.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ id: 'quota_exceeded', extras: { limit_name: 'file_monthly_limit' } });
    expect(count('SELECT COUNT(*) AS n FROM files')).toBe(6);
    expect(count('SELECT COUNT(*) AS n FROM files_idempotency')).toBe(6);
    expect(jobs.get('job_x')!.file_count).toBe(6);
    // Items without custom_id are refused before anything is written.
    await expect(acceptBatch(ax, OWNER, batch({ files: items(5) }), CHUNK)).rejects.toMatchObject({ id: 'quota_exceeded' });
    expect(count('SELECT COUNT(*) AS n FROM files_submissions')).toBe(2);
  });

  it('after a crash, undoes a batch still writing and releases one that had committed', () => {
    const done = files.addSubmission({ job_id: 'job_done', request_args: '{}', image_output_mode: null, callback: null }, Date.now(), 'accepted');
    const cut = files.addSubmission({ job_id: 'job_cut', request_args: '{}', image_output_mode: null, callback: null }, Date.now(), 'writing');
    const owner = (job_id: string, submission_id: number) => ({ app_id: 'app_1', group_id: 'g', job_id, submission_id });
    for (const f of items(3)) files.addFile(f, owner('job_done', done), Date.now(), true);
    for (const [i, f] of items(4).entries()) {
      files.addFile({ ...f, custom_id: `c${i}` }, owner('job_cut', cut), Date.now(), true);
      files.bindKey(pairScope('job_cut'), `c${i}`, f.file_id);
    }
    expect(recoverAcceptances(db)).toEqual({ undone: 1, released: 3 });
    expect(files.undispatched(100).map((f) => f.job_id)).toEqual(['job_done', 'job_done', 'job_done']);
    expect(count('SELECT COUNT(*) AS n FROM files WHERE job_id = ?', 'job_cut')).toBe(0);
    expect(count('SELECT COUNT(*) AS n FROM files_idempotency')).toBe(0);
    expect(count('SELECT COUNT(*) AS n FROM files_submissions')).toBe(1);
  });
});
