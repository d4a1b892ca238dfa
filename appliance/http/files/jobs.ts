import { Hono } from 'hono';
import { ApiError } from '../../../core/errors.js';
import { randomId } from '../../../core/ids.js';
import { PdfStore } from '../../../core/v3/pdf-store.js';
import { requireLicense } from '../../../license/gate.js';
import type { AuthEnv } from '../../auth/middleware.js';
import type { AppContext } from '../../context.js';
import { acceptBatch, derivedJobId, pairScope } from '../../files/accept.js';
import { wakeDispatcher } from '../../files/dispatcher.js';
import { FilesLedger, type FileStatus } from '../../files/ledger.js';
import { JobsLedger, MAX_FILES_PER_JOB } from '../../files/jobs-ledger.js';
import { filesSettings } from '../../files/settings.js';
import type { OpenBucketUri } from '../../files/sources.js';
import { type CheckOptions, idempotencyKey, jobIdField, parseSettings } from '../../files/submission.js';
import { readJson } from '../read-json.js';
import { planBatch } from '../../files/plan-batch.js';
import { checkGroup, createdWindow, fileEntry, fileView, jobView, liveStatusOf, pageOf, parsePaging } from './views.js';
import type { FilesGuard } from './guard.js';

/** 200,000 items of a few hundred bytes each, with room to spare. */
export const MAX_JOB_BODY_BYTES = 256 * 1024 * 1024;
const LIST_STATUSES: readonly FileStatus[] = ['pending', 'split', 'completed', 'error', 'deleted'];

/**
 * The job routes of spec 4.10 (header app_key only):
 * - POST /files/v1/jobs                          {files, job_id?, ...options} → {job_id, file_count}
 * - GET  /files/v1/jobs                          ?from_date&to_date (or start&end)&page_size&page_token (or limit&paging_state) → {jobs, next_page_token}
 * - GET  /files/v1/jobs/{job_id}                 status and counters (2.9)
 * - POST /files/v1/jobs/{job_id}/finalize        closes the job → the status object
 * - GET  /files/v1/jobs/{job_id}/files           ?status&page_size&page_token → {files, next_page_token}
 * - GET  /files/v1/jobs/{job_id}/files/{custom_id}  the file (2.8)
 */
export function filesJobRoutes(ctx: AppContext, guard: FilesGuard, checks: CheckOptions, open: OpenBucketUri): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const files = new FilesLedger(ctx.db);
  const jobs = new JobsLedger(ctx.db);
  const pdfs = new PdfStore(ctx.redis, ctx.config.FOLIO_QUEUE_PREFIX, ctx.now);
  const settings = filesSettings(ctx.config);
  const [ipLimit, withKey, keyLimit] = guard;

  app.post('/files/v1/jobs', ipLimit, withKey, keyLimit, requireLicense(ctx), async (c) => {
    const auth = c.get('auth');
    const body = await readJson(c.req.raw, MAX_JOB_BODY_BYTES);
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError('bad_request', 'Body must be a JSON object');
    const { files: items, job_id, ...rest } = body as Record<string, unknown>;
    if (!Array.isArray(items) || items.length === 0) throw new ApiError('bad_request', 'files must be a non-empty array of FileSubmission', { field: 'files' });
    if (items.length > MAX_FILES_PER_JOB) throw new ApiError('bad_request', `files holds at most ${MAX_FILES_PER_JOB} items`, { field: 'files' });
    const explicit = jobIdField(job_id);
    const key = idempotencyKey(c.req.header('idempotency-key'));
    if (!explicit && items.some((f) => f && typeof f === 'object' && (f as Record<string, unknown>).custom_id !== undefined)) {
      throw new ApiError('bad_request', 'custom_id requires a top-level job_id', { field: 'job_id' });
    }
    // Idempotency-Key counts only without job_id: it then derives the job id (spec 4.10).
    const replay = !explicit && key !== undefined;
    const jobId = explicit ?? (replay ? derivedJobId(auth.appId, key!) : randomId('job_', 12));
    const existing = jobs.get(jobId);
    if (existing && existing.group_id !== auth.groupId) throw new ApiError('forbidden', `Job ${jobId} belongs to another group`);
    if (existing && replay && existing.app_id === auth.appId) return c.json({ job_id: jobId, file_count: existing.replay_file_count ?? existing.file_count });
    const submission = await parseSettings(rest, true, checks);
    const planned = await planBatch(ctx, auth.groupId, items, submission, checks, open);
    const res = await acceptBatch({ db: ctx.db, limits: settings, nowMs: ctx.now() }, auth, { jobId, replay, settings: submission, files: planned });
    if (res.created) wakeDispatcher();
    return c.json({ job_id: res.job_id, file_count: res.file_count });
  });

  app.get('/files/v1/jobs', ipLimit, withKey, keyLimit, async (c) => {
    const q = c.req.query();
    const { size, cursor } = parsePaging(q);
    const { from, to } = createdWindow(q);
    const rows = jobs.list(c.get('auth').groupId, { from, to, beforeRowid: cursor ?? Number.MAX_SAFE_INTEGER, limit: size + 1 });
    const { page, next } = pageOf(rows, size);
    return c.json({ jobs: page.map(jobView), next_page_token: next });
  });

  app.get('/files/v1/jobs/:job_id', ipLimit, withKey, keyLimit, (c) =>
    c.json(jobView(checkGroup(jobs.get(c.req.param('job_id')), c.get('auth'), `job ${c.req.param('job_id')}`))),
  );

  app.post('/files/v1/jobs/:job_id/finalize', ipLimit, withKey, keyLimit, (c) => {
    const jobId = c.req.param('job_id');
    const job = checkGroup(jobs.get(jobId), c.get('auth'), `job ${jobId}`);
    if (job.app_id !== c.get('auth').appId) throw new ApiError('forbidden', `Job ${jobId} belongs to another application`);
    const now = ctx.now();
    const after = ctx.db.transaction(() => {
      jobs.finalize(jobId, now);
      jobs.scheduleCompletionIfSettled(jobId, settings.jobCompletedDelayMs, now);
      return jobs.get(jobId)!;
    })();
    return c.json(jobView(after));
  });

  app.get('/files/v1/jobs/:job_id/files', ipLimit, withKey, keyLimit, async (c) => {
    const jobId = c.req.param('job_id');
    checkGroup(jobs.get(jobId), c.get('auth'), `job ${jobId}`);
    const q = c.req.query();
    const { size, cursor } = parsePaging(q);
    const status = q.status as FileStatus | undefined;
    if (status !== undefined && !LIST_STATUSES.includes(status))
      throw new ApiError('bad_request', `status must be one of ${LIST_STATUSES.join(', ')}`, { field: 'status' });
    // The ledger keeps split files as pending: both filters read its pending rows. pending means not
    // yet settled (split included, as clients read it); split keeps only the files already split.
    const ledgerStatus = status === 'split' ? 'pending' : status;
    const rows = files.listJobFiles(jobId, { status: ledgerStatus, afterRowid: cursor ?? 0, limit: size + 1 });
    const { page, next } = pageOf(rows, size);
    const statuses = await liveStatusOf(pdfs, page);
    const entries = page.map((r, i) => fileEntry(r, statuses[i]!)).filter((e) => status !== 'split' || e.status === 'split');
    return c.json({ files: entries, next_page_token: next });
  });

  app.get('/files/v1/jobs/:job_id/files/:custom_id', ipLimit, withKey, keyLimit, async (c) => {
    const jobId = c.req.param('job_id');
    const customId = c.req.param('custom_id');
    checkGroup(jobs.get(jobId), c.get('auth'), `job ${jobId}`);
    const row = files.byKey(pairScope(jobId), customId);
    if (!row || row.status === 'deleted') throw new ApiError('not_found', `No file with custom_id ${customId} in job ${jobId}`);
    return c.json(fileView(row, row.status === 'pending' ? await pdfs.get(row.file_id) : null));
  });

  return app;
}
