import { Hono } from 'hono';
import { stream } from 'hono/streaming';
import { z } from 'zod';
import { ApiError } from '../../../core/errors.js';
import { FILE_STATUSES, type FileStatus, JOB_STATUSES, TERMINAL_FILE_STATUSES } from '../../../core/pco/job-spec.js';
import type { AppContext } from '../../context.js';
import type { PcoJobs } from '../../orchestrator/pco-jobs.js';
import { dryRun } from '../../orchestrator/dry-run.js';
import { fileView, jobView } from './views.js';
import { sendFileOutput, sendFileSource } from './file-content.js';
import { readJson } from '../read-json.js';
import { requireLicense } from '../../../license/gate.js';

const limitSchema = (def: number) => z.coerce.number().int().min(1).max(1000).default(def);

function query<T extends z.ZodTypeAny>(schema: T, value: unknown): z.infer<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw new ApiError('bad_request', r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return r.data;
}

/** /pco/v1/jobs and its sub-resources (spec 4.13). No credentials. */
export function pcoJobRoutes(ctx: AppContext, jobs: PcoJobs): Hono {
  const app = new Hono();
  const view = (job: Parameters<typeof jobView>[0], withSpec = true) => jobView(job, { publicUrl: ctx.config.publicUrl, now: ctx.now(), withSpec });

  app.post('/pco/v1/jobs', requireLicense(ctx), async (c) => {
    const body = await readJson(c.req.raw);
    if (c.req.query('dry_run') === 'true') {
      const spec = await jobs.validate(body);
      await jobs.checkStorage(spec);
      return c.json(await dryRun(ctx, spec));
    }
    const { job, created } = await jobs.create(body);
    return c.json(view(job), created ? 201 : 200);
  });

  app.get('/pco/v1/jobs', async (c) => {
    const q = query(
      z.object({ status: z.enum(JOB_STATUSES).optional(), limit: limitSchema(50), cursor: z.coerce.number().int().min(0).default(0) }),
      c.req.query(),
    );
    const out = [];
    let offset = q.cursor;
    // Walk the newest-first index until the page is full; the cursor is the index offset.
    while (out.length < q.limit) {
      const ids = await jobs.store.listJobIds(offset, 200);
      if (!ids.length) break;
      for (const id of ids) {
        offset++;
        const job = await jobs.store.getJob(id);
        if (!job) {
          await ctx.redis.zrem(jobs.store.keys.jobs, id); // expired record
          offset--;
          continue;
        }
        const v = view(job, false);
        if (!q.status || v.status === q.status) out.push(v);
        if (out.length >= q.limit) break;
      }
    }
    const more = (await jobs.store.listJobIds(offset, 1)).length > 0;
    return c.json({ jobs: out, next_cursor: more ? String(offset) : null });
  });

  app.get('/pco/v1/jobs/:id', async (c) => c.json(view(await jobs.get(c.req.param('id')))));

  app.get('/pco/v1/jobs/:id/files', async (c) => {
    const jobId = c.req.param('id');
    await jobs.get(jobId);
    const q = query(
      z.object({
        status: z.enum(FILE_STATUSES).optional(),
        limit: limitSchema(100),
        cursor: z
          .string()
          .regex(/^\d+:\d+(\.\d+)?$/)
          .optional(),
      }),
      c.req.query(),
    );
    const statuses: readonly FileStatus[] = q.status ? [q.status] : FILE_STATUSES;
    const page = await jobs.store.listFileIds(jobId, statuses, q.cursor ?? null, q.limit);
    const files = (await Promise.all(page.ids.map((id) => jobs.store.getFile(jobId, id)))).filter((f) => f !== null);
    return c.json({ files: files.map((f) => fileView(f)), next_cursor: page.next });
  });

  app.get('/pco/v1/jobs/:id/files/:doc', async (c) => {
    const jobId = c.req.param('id');
    await jobs.get(jobId);
    const f = await jobs.store.getFile(jobId, c.req.param('doc'));
    if (!f) throw new ApiError('not_found', `No file ${c.req.param('doc')} in job ${jobId}`);
    return c.json(fileView(f, true));
  });

  // Folio extensions, not in the private-cloud spec: read-only views of one file's recorded outputs
  // and of its source document, so the operator console can show the MMD beside the source page.
  // No credentials, like the rest of /pco/v1. The objects are opened from URIs in the job's own
  // records (never from the caller), through the appliance's storage settings.
  //   GET /pco/v1/jobs/{job_id}/files/{document_id}/outputs/{ext}  one of file.outputs (mmd, lines.json…)
  //   GET /pco/v1/jobs/{job_id}/files/{document_id}/source         the source document
  const fileOf = async (jobId: string, doc: string) => {
    await jobs.get(jobId);
    const f = await jobs.store.getFile(jobId, doc);
    if (!f) throw new ApiError('not_found', `No file ${doc} in job ${jobId}`);
    return f;
  };

  app.get('/pco/v1/jobs/:id/files/:doc/outputs/:ext', async (c) =>
    sendFileOutput(c, await fileOf(c.req.param('id'), c.req.param('doc')), c.req.param('ext'), ctx.storageSettings),
  );

  app.get('/pco/v1/jobs/:id/files/:doc/source', async (c) => sendFileSource(c, await fileOf(c.req.param('id'), c.req.param('doc')), ctx.storageSettings));

  app.get('/pco/v1/jobs/:id/report', async (c) => {
    const jobId = c.req.param('id');
    await jobs.get(jobId);
    const status = query(z.object({ status: z.enum(TERMINAL_FILE_STATUSES as [FileStatus, ...FileStatus[]]).optional() }), c.req.query()).status;
    c.header('content-type', 'application/x-ndjson');
    return stream(c, async (s) => {
      let cursor: string | null = null;
      do {
        const page: { ids: string[]; next: string | null } = await jobs.store.listFileIds(jobId, status ? [status] : TERMINAL_FILE_STATUSES, cursor, 500);
        for (const id of page.ids) {
          const f = await jobs.store.getFile(jobId, id);
          if (f) await s.write(`${JSON.stringify(fileView(f))}\n`);
        }
        cursor = page.next;
      } while (cursor);
    });
  });

  app.post('/pco/v1/jobs/:id/retry', async (c) => {
    const text = await c.req.text();
    let errorIds: string[] | undefined;
    if (text.trim()) {
      const body = query(z.object({ error_ids: z.array(z.string()).optional() }).strict(), parseJson(text));
      errorIds = body.error_ids;
    }
    const { job, requeued } = await jobs.retry(c.req.param('id'), errorIds);
    return c.json({ ...view(job), requeued });
  });

  app.post('/pco/v1/jobs/:id/cancel', async (c) => c.json(view(await jobs.cancel(c.req.param('id')))));

  app.delete('/pco/v1/jobs/:id', async (c) => {
    await jobs.delete(c.req.param('id'));
    return c.body(null, 204);
  });
  return app;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('bad_request', 'Body is not valid JSON');
  }
}
