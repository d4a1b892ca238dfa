import { readFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import type { DryRun, FilePage, Job, JobFile, JobPage } from '../api-types.js';
import { type CliContext, contextOf } from '../context.js';
import { CliError } from '../http.js';
import { keyValues, table, when } from '../table.js';
import { fileSummary, filesDone, jobSummary } from './job-summary.js';

const JOB_STATUSES = ['enumerating', 'processing', 'completed', 'completed_with_failures', 'cancelled', 'error'];
const FILE_STATUSES = ['queued', 'processing', 'completed', 'failed', 'skipped'];
const TERMINAL_FILE_STATUSES = ['completed', 'failed', 'skipped'];

const jobPath = (id: string) => `/pco/v1/jobs/${encodeURIComponent(id)}`;

/** `folio jobs …`: create, list, get, files, file, report, retry, cancel, delete (spec 4.13). */
export function jobsCommand(program: Command): Command {
  const jobs = program.command('jobs').description('private-cloud jobs: convert every document of a folder');

  jobs
    .command('create')
    .description('create a job (or return the identical existing one)')
    .option('--input <folder-uri>', "input folder URI, ending in '/' (s3://, gs://, Azure Blob https://)")
    .option('--output <folder-uri>', 'output folder URI (default: the input folder)')
    .addOption(new Option('--layout <layout>', 'where outputs go').choices(['alongside', 'mirror', 'flat']))
    .option('--include <glob...>', 'only keys matching these globs')
    .option('--exclude <glob...>', 'skip keys matching these globs')
    .addOption(new Option('--priority <priority>', 'queue priority').choices(['low', 'normal', 'high']))
    .option('--name <name>', 'a name shown in listings')
    .option('--dry-run', 'only estimate files, pages and GPU hours; create nothing')
    .option('--body <file.json>', 'a full create body (spec 4.13); the flags above override its fields')
    .action(async (opts, cmd: Command) => create(contextOf(cmd), opts));

  jobs
    .command('list')
    .description('list jobs, newest first')
    .addOption(new Option('--status <status>', 'only jobs in this status').choices(JOB_STATUSES))
    .option('--limit <n>', 'at most this many jobs (1-1000)', '50')
    .option('--cursor <cursor>', 'continue a listing from the cursor it printed')
    .action(async (opts, cmd: Command) => list(contextOf(cmd), opts));

  jobs
    .command('get')
    .description('show one job')
    .argument('<job-id>')
    .action(async (id: string, _opts, cmd: Command) => {
      const ctx = contextOf(cmd);
      const job = (await ctx.client.call<Job>('GET', jobPath(id))).body;
      if (ctx.json) return ctx.printJson(job);
      ctx.print(jobSummary(job));
    });

  jobs
    .command('files')
    .description("list a job's files")
    .argument('<job-id>')
    .addOption(new Option('--status <status>', 'only files in this status').choices(FILE_STATUSES))
    .option('--limit <n>', 'at most this many files (1-1000)', '100')
    .option('--cursor <cursor>', 'continue a listing from the cursor it printed')
    .action(async (id: string, opts, cmd: Command) => files(contextOf(cmd), id, opts));

  jobs
    .command('file')
    .description('show one file of a job with its page errors')
    .argument('<job-id>')
    .argument('<document-id>')
    .action(async (id: string, doc: string, _opts, cmd: Command) => {
      const ctx = contextOf(cmd);
      const f = (await ctx.client.call<JobFile>('GET', `${jobPath(id)}/files/${encodeURIComponent(doc)}`)).body;
      if (ctx.json) return ctx.printJson(f);
      ctx.print(fileSummary(f));
    });

  jobs
    .command('report')
    .description('print the NDJSON report: one line per finished file')
    .argument('<job-id>')
    .addOption(new Option('--status <status>', 'only files in this status').choices(TERMINAL_FILE_STATUSES))
    .action(async (id: string, opts: { status?: string }, cmd: Command) => report(contextOf(cmd), id, opts.status));

  jobs
    .command('retry')
    .description("requeue a finished job's failed files")
    .argument('<job-id>')
    .option('--error-id <id...>', 'only failed files with these error ids')
    .action(async (id: string, opts: { errorId?: string[] }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const body = opts.errorId?.length ? { error_ids: opts.errorId } : undefined;
      const job = (await ctx.client.call<Job & { requeued: number }>('POST', `${jobPath(id)}/retry`, { body })).body;
      if (ctx.json) return ctx.printJson(job);
      ctx.print(`requeued ${job.requeued} failed file(s); job ${job.job_id} is ${job.status}`);
      ctx.print(`follow it with: folio jobs watch ${job.job_id}`);
    });

  jobs
    .command('cancel')
    .description('cancel a job: queued files are skipped, in-flight files finish')
    .argument('<job-id>')
    .action(async (id: string, _opts, cmd: Command) => {
      const ctx = contextOf(cmd);
      const before = (await ctx.client.call<Job>('GET', jobPath(id))).body;
      const job = (await ctx.client.call<Job>('POST', `${jobPath(id)}/cancel`)).body;
      if (ctx.json) return ctx.printJson(job);
      if (job.status !== 'cancelled') ctx.print(`job ${job.job_id} had already finished: ${job.status} (unchanged)`);
      else if (before.status === 'cancelled') ctx.print(`job ${job.job_id} was already cancelled`);
      else ctx.print(`cancelled job ${job.job_id}: queued files are skipped, files in flight finish and are recorded`);
    });

  jobs
    .command('delete')
    .description("delete a job's record and file statuses (outputs in storage are kept)")
    .argument('<job-id>')
    .action(async (id: string, _opts, cmd: Command) => {
      const ctx = contextOf(cmd);
      await ctx.client.call('DELETE', jobPath(id));
      if (ctx.json) return ctx.printJson({ deleted: true, job_id: id });
      ctx.print(`deleted job ${id} (outputs and the manifest in storage are kept)`);
    });

  return jobs;
}

interface CreateOptions {
  input?: string;
  output?: string;
  layout?: string;
  include?: string[];
  exclude?: string[];
  priority?: string;
  name?: string;
  dryRun?: boolean;
  body?: string;
}

/** The create body: --body as the base, each flag given set on top of it. */
async function createBody(opts: CreateOptions): Promise<Record<string, any>> {
  let body: Record<string, any> = {};
  if (opts.body) {
    let text: string;
    try {
      text = await readFile(opts.body, 'utf8');
    } catch (err) {
      throw new CliError(`cannot read ${opts.body}: ${(err as Error).message}`);
    }
    try {
      body = JSON.parse(text);
    } catch (err) {
      throw new CliError(`${opts.body} is not valid JSON: ${(err as Error).message}`);
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new CliError(`${opts.body} must hold a JSON object`);
  } else if (!opts.input) {
    throw new CliError('give --input <folder-uri> or --body <file.json>', 1, 'e.g. folio jobs create --input s3://bucket/scans/');
  }
  const set = (section: string, key: string, value: unknown) => {
    if (value !== undefined) body[section] = { ...(body[section] ?? {}), [key]: value };
  };
  set('input', 'folder', opts.input);
  set('input', 'include', opts.include);
  set('input', 'exclude', opts.exclude);
  set('output', 'folder', opts.output);
  set('output', 'layout', opts.layout);
  set('policy', 'priority', opts.priority);
  if (opts.name !== undefined) body.name = opts.name;
  return body;
}

async function create(ctx: CliContext, opts: CreateOptions): Promise<void> {
  const body = await createBody(opts);
  if (opts.dryRun) {
    const est = (await ctx.client.call<DryRun>('POST', '/pco/v1/jobs', { body, query: { dry_run: 'true' } })).body;
    if (ctx.json) return ctx.printJson(est);
    const byType = Object.entries(est.files.by_type ?? {})
      .map(([t, n]) => `${t} ${n}`)
      .join(', ');
    const rate = est.deployment.measured_pages_per_minute;
    ctx.print(
      keyValues([
        ['dry run', body.input?.folder ?? `${body.input?.files?.length ?? 0} listed files`],
        ['files', `${est.files.discovered} to consider, ${est.files.excluded} excluded, ${est.files.already_processed} already processed`],
        ['by type', byType],
        ['pages', `about ${est.pages.estimated_total} (from ${est.pages.files_sampled} sampled files)`],
        ['gpu hours', est.estimated_gpu_hours ?? 'unknown until the deployment has measured a page rate'],
        ['deployment', `${est.deployment.gpu_workers} GPU worker(s), ${rate === null ? 'no measured rate yet' : `${rate} pages/min measured`}`],
      ]),
    );
    return;
  }
  const res = await ctx.client.call<Job>('POST', '/pco/v1/jobs', { body });
  const job = res.body;
  if (ctx.json) return ctx.printJson(job);
  ctx.print(res.status === 201 ? `created job ${job.job_id}` : `job ${job.job_id} already exists with this spec (${job.status}); nothing new was created`);
  ctx.print(`follow it with: folio jobs watch ${job.job_id}`);
}

async function list(ctx: CliContext, opts: { status?: string; limit: string; cursor?: string }): Promise<void> {
  const page = (await ctx.client.call<JobPage>('GET', '/pco/v1/jobs', { query: { status: opts.status, limit: opts.limit, cursor: opts.cursor } })).body;
  if (ctx.json) return ctx.printJson(page);
  if (!page.jobs.length) ctx.print('no jobs');
  else
    ctx.print(
      table(page.jobs, [
        { header: 'JOB ID', value: (j) => j.job_id },
        { header: 'NAME', value: (j) => j.name },
        { header: 'STATUS', value: (j) => j.status },
        { header: 'FILES', value: (j) => `${filesDone(j.files)}/${j.files.discovered}`, align: 'right' },
        { header: 'FAILED', value: (j) => j.files.failed, align: 'right' },
        { header: 'PAGES', value: (j) => j.pages.completed, align: 'right' },
        { header: 'CREATED', value: (j) => when(j.created_at) },
      ]),
    );
  if (page.next_cursor) process.stderr.write(`more: folio jobs list --cursor ${page.next_cursor}\n`);
}

async function files(ctx: CliContext, id: string, opts: { status?: string; limit: string; cursor?: string }): Promise<void> {
  const page = (await ctx.client.call<FilePage>('GET', `${jobPath(id)}/files`, { query: { status: opts.status, limit: opts.limit, cursor: opts.cursor } }))
    .body;
  if (ctx.json) return ctx.printJson(page);
  if (!page.files.length) ctx.print(opts.status ? `no ${opts.status} files` : 'no files');
  else
    ctx.print(
      table(page.files, [
        { header: 'DOCUMENT ID', value: (f) => f.document_id },
        { header: 'KEY', value: (f) => f.key },
        { header: 'STATUS', value: (f) => f.status },
        { header: 'PAGES', value: (f) => (f.pages_failed ? `${f.pages} (${f.pages_failed} failed)` : f.pages), align: 'right' },
        { header: 'TRIES', value: (f) => f.attempts, align: 'right' },
        { header: 'ERROR', value: (f) => (f.error_id ? `${f.error_id}: ${f.error_message ?? ''}` : null) },
      ]),
    );
  if (page.next_cursor) process.stderr.write(`more: folio jobs files ${id}${opts.status ? ` --status ${opts.status}` : ''} --cursor ${page.next_cursor}\n`);
}

/** Streams the NDJSON report to stdout as it arrives (a report can be long). */
async function report(ctx: CliContext, id: string, status?: string): Promise<void> {
  const res = await ctx.client.ensureOk(await ctx.client.raw('GET', `${jobPath(id)}/report`, { query: { status } }));
  if (!res.body) return;
  for await (const chunk of res.body) {
    if (!process.stdout.write(chunk)) await new Promise((r) => process.stdout.once('drain', r));
  }
}
