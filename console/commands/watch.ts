import { Presets, SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import type { Job } from '../api-types.js';
import { type CliContext, contextOf } from '../context.js';
import { CliError } from '../http.js';
import { duration } from '../table.js';
import { filesDone } from './job-summary.js';

/** Exit codes of `folio jobs watch`, by the job's terminal status. */
export const WATCH_EXIT_CODES: Record<string, number> = { completed: 0, completed_with_failures: 2, cancelled: 3, error: 3 };
/** In plain mode an unchanged line is repeated this often, so a quiet job still shows the watch is alive. */
const PLAIN_REPEAT_MS = 30_000;

/** `folio jobs watch ID`: live progress until the job is terminal; the exit code tells how it ended. */
export function watchCommand(jobs: Command): Command {
  return jobs
    .command('watch')
    .description('follow a job until it finishes (exit 0 completed, 2 completed_with_failures, 3 cancelled or error)')
    .argument('<job-id>')
    .option('--interval <ms>', 'time between polls', '1000')
    .action(async (id: string, opts: { interval: string }, cmd: Command) => {
      const interval = Number(opts.interval);
      if (!Number.isFinite(interval) || interval < 100) throw new CliError('--interval must be a number of milliseconds, at least 100');
      process.exitCode = await watch(contextOf(cmd), id, interval);
    });
}

interface Display {
  update(job: Job): void;
  stop(): void;
}

async function watch(ctx: CliContext, id: string, intervalMs: number): Promise<number> {
  const path = `/pco/v1/jobs/${encodeURIComponent(id)}`;
  const display: Display = ctx.json ? { update() {}, stop() {} } : process.stdout.isTTY ? barDisplay() : plainDisplay(ctx);
  const onInterrupt = () => {
    display.stop();
    process.stderr.write(`\nstopped watching; the job goes on (folio jobs cancel ${id} stops it)\n`);
    process.exit(130);
  };
  process.once('SIGINT', onInterrupt);
  try {
    for (;;) {
      const job = (await ctx.client.call<Job>('GET', path)).body;
      display.update(job);
      const code = WATCH_EXIT_CODES[job.status];
      if (code !== undefined) {
        display.stop();
        if (ctx.json) ctx.printJson(job);
        else ctx.print(finalSummary(job));
        return code;
      }
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  } finally {
    display.stop();
    process.off('SIGINT', onInterrupt);
  }
}

/** One progress line: status, files done/discovered, pages, throughput and ETA. */
function progressLine(job: Job): string {
  const f = job.files;
  const eta = job.eta_seconds === null ? 'unknown' : duration(job.eta_seconds);
  return (
    `${job.status}  files ${filesDone(f)}/${f.discovered} (${f.failed} failed, ${f.skipped} skipped, ${f.processing} in progress)` +
    `  pages ${job.pages.completed}${job.pages.failed ? ` (${job.pages.failed} failed)` : ''}` +
    `  ${job.throughput_pages_per_minute} pages/min  eta ${eta}`
  );
}

function finalSummary(job: Job): string {
  const f = job.files;
  const took = job.started_at && job.finished_at ? `; took ${duration((Date.parse(job.finished_at) - Date.parse(job.started_at)) / 1000)}` : '';
  const lines = [
    `${job.status}: ${f.discovered} files, ${f.completed} completed, ${f.failed} failed, ${f.skipped} skipped; ` +
      `${job.pages.completed} pages completed, ${job.pages.failed} failed${took}`,
  ];
  if (job.error_info) lines.push(`error ${job.error_info.id}: ${job.error_info.message}`);
  if (f.failed > 0) lines.push(`failed files: folio jobs files ${job.job_id} --status failed`);
  if (job.output?.manifest_uri) lines.push(`manifest: ${job.output.manifest_uri}`);
  return lines.join('\n');
}

/** For pipes and logs: a timestamped line whenever the progress changes. */
function plainDisplay(ctx: CliContext): Display {
  let last = '';
  let lastAt = 0;
  return {
    update(job) {
      const line = progressLine(job);
      if (line === last && Date.now() - lastAt < PLAIN_REPEAT_MS) return;
      last = line;
      lastAt = Date.now();
      ctx.print(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
    },
    stop() {},
  };
}

/** For a terminal: one bar redrawn in place. */
function barDisplay(): Display {
  const bar = new SingleBar(
    {
      stream: process.stdout,
      format: '{bar} {done}/{discovered} files | {failed} failed | {pages} pages | {rate} pages/min | ETA {eta_text} | {status}',
      hideCursor: true,
      barsize: 30,
    },
    Presets.shades_classic,
  );
  let started = false;
  let stopped = false;
  return {
    update(job) {
      const payload = {
        done: filesDone(job.files),
        discovered: job.files.discovered,
        failed: job.files.failed,
        pages: job.pages.completed,
        rate: job.throughput_pages_per_minute,
        eta_text: job.eta_seconds === null ? '?' : duration(job.eta_seconds),
        status: job.status,
      };
      // 'eta' is a built-in placeholder of cli-progress, hence eta_text. The bar needs a total above zero; while enumeration finds nothing yet, show an empty bar.
      const total = Math.max(job.files.discovered, 1);
      if (!started) {
        bar.start(total, payload.done, payload);
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(payload.done, payload);
      }
    },
    stop() {
      if (started && !stopped) bar.stop();
      stopped = true;
    },
  };
}
