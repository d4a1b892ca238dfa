import { Hono } from 'hono';
import { ApiError } from '../../../core/errors.js';
import type { AuthEnv } from '../../auth/middleware.js';
import type { AppContext } from '../../context.js';
import { FilesLedger } from '../../files/ledger.js';
import { JobsLedger } from '../../files/jobs-ledger.js';
import { jobIdField } from '../../files/submission.js';
import type { FilesGuard } from './guard.js';
import { checkGroup, createdWindow, jobView, pageOf, parsePaging } from './views.js';

/** A required query value, or 400 bad_request naming it. */
function required(value: string | undefined, field: string): string {
  if (value === undefined || value === '') throw new ApiError('bad_request', `${field} is required`, { field });
  return value;
}

/**
 * The Files API's older route names, which the hosted service keeps for existing clients (their
 * jobs were "scs jobs", named by scs_job_id), answered from the same ledger as their successors:
 * - GET /files/v1/scs-jobs          ?start&end (yyyy-MM-dd)&limit&paging_state → {jobs, paging_state}, as GET /files/v1/jobs
 * - GET /files/v1/scs-jobs/status   ?scs_job_id → the job status (2.9) plus scs_job_id, as GET /files/v1/jobs/{job_id}
 * - GET /files/v1/list              ?scs_job_id&filename&limit&paging_state → {file_ids, next_page_token}: the
 *                                   group's files in submission order, by job and by filename when given
 * Each job entry repeats its job_id as scs_job_id. Unknown jobs answer 404 not_found.
 */
export function filesLegacyRoutes(ctx: AppContext, guard: FilesGuard): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const files = new FilesLedger(ctx.db);
  const jobs = new JobsLedger(ctx.db);
  const [ipLimit, withKey, keyLimit] = guard;
  const legacyJob = (job: Parameters<typeof jobView>[0]) => ({ scs_job_id: job.job_id, ...jobView(job) });

  app.get('/files/v1/scs-jobs', ipLimit, withKey, keyLimit, (c) => {
    const q = c.req.query();
    const { size, cursor } = parsePaging(q);
    const rows = jobs.list(c.get('auth').groupId, { ...createdWindow(q), beforeRowid: cursor ?? Number.MAX_SAFE_INTEGER, limit: size + 1 });
    const { page, next } = pageOf(rows, size);
    return c.json({ jobs: page.map(legacyJob), paging_state: next });
  });

  app.get('/files/v1/scs-jobs/status', ipLimit, withKey, keyLimit, (c) => {
    const jobId = jobIdField(required(c.req.query('scs_job_id'), 'scs_job_id'))!;
    return c.json(legacyJob(checkGroup(jobs.get(jobId), c.get('auth'), `job ${jobId}`)));
  });

  app.get('/files/v1/list', ipLimit, withKey, keyLimit, (c) => {
    const q = c.req.query();
    const { size, cursor } = parsePaging(q);
    const jobId = q.scs_job_id === undefined ? undefined : jobIdField(q.scs_job_id);
    // Another group's job lists nothing of its files: 403 as for GET /files/v1/jobs/{job_id}/files.
    const job = jobId === undefined ? undefined : jobs.get(jobId);
    if (job) checkGroup(job, c.get('auth'), `job ${jobId}`);
    const rows = files.listGroupFiles(c.get('auth').groupId, { jobId, filename: q.filename, afterRowid: cursor ?? 0, limit: size + 1 });
    const { page, next } = pageOf(rows, size);
    return c.json({ file_ids: page.map((r) => r.file_id), next_page_token: next });
  });

  return app;
}
