/**
 * POST /v3/text under rising concurrency (1, 2, 4, 8, 16 clients) against a running appliance
 * with one inference worker: each client sends its requests back to back with the same
 * paragraph image; reports requests per second and latency percentiles per level.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { spawnAppliance } from '../test/support/appliance.js';
import { headingAndParagraphsPdf } from '../test/support/pdf-fixtures.js';

const run = promisify(execFile);
const LEVELS = (process.env.BENCH_TEXT_LEVELS ?? '1,2,4,8,16').split(',').map(Number);
/** Requests per level: enough for a p99 to mean "the slowest few", bounded for two shared cores. */
const REQUESTS_PER_LEVEL = Number(process.env.BENCH_TEXT_REQUESTS ?? 32);

export interface LevelResult {
  clients: number;
  requests: number;
  errors: number;
  requests_per_second: number;
  p50_ms: number;
  p99_ms: number;
}

/** The heading and first paragraph of the fixture page at 150 dpi: a typical /v3/text image. */
async function paragraphPng(): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-bench-text-'));
  try {
    await writeFile(join(dir, 'in.pdf'), await headingAndParagraphsPdf());
    await run('pdftoppm', ['-r', '150', '-png', '-singlefile', join(dir, 'in.pdf'), join(dir, 'page')]);
    const page = await readFile(join(dir, 'page.png'));
    const { width } = await sharp(page).metadata();
    return sharp(page).extract({ left: 0, top: 0, width: width!, height: 420 }).png().toBuffer();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export async function benchTextConcurrency(): Promise<{ levels: LevelResult[]; inference_workers: number }> {
  const app = await spawnAppliance({ FOLIO_INFERENCE_WORKERS: '1', FOLIO_DOCUMENT_WORKERS: '0', FOLIO_DOCUMENT_WORKERS_EXPECTED: '0', FOLIO_TEXT_REQUESTS_MAX: '16', FOLIO_LOG_LEVEL: 'error' });
  try {
    const json = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as any };
    };
    const made = await json('/pco/v1/apps', { name: `bench-text-${Date.now()}` });
    const auth = { app_id: made.body.app_id, app_key: (await json(`/pco/v1/apps/${made.body.app_id}/keys`, {})).body.app_key };
    const src = `data:image/png;base64,${(await paragraphPng()).toString('base64')}`;
    const once = async () => {
      const t = performance.now();
      const r = await json('/v3/text', { src }, auth);
      return { ms: performance.now() - t, ok: r.status === 200 && !r.body.error };
    };
    for (let i = 0; i < 3; i++) await once(); // warm-up: model sessions, first-run allocations
    const levels: LevelResult[] = [];
    for (const clients of LEVELS) {
      const perClient = Math.max(1, Math.ceil(REQUESTS_PER_LEVEL / clients));
      const samples: { ms: number; ok: boolean }[] = [];
      const t = performance.now();
      await Promise.all(Array.from({ length: clients }, async () => {
        for (let i = 0; i < perClient; i++) samples.push(await once());
      }));
      const seconds = (performance.now() - t) / 1000;
      const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
      levels.push({
        clients, requests: samples.length, errors: samples.filter((s) => !s.ok).length,
        requests_per_second: Math.round((samples.length / seconds) * 100) / 100,
        p50_ms: Math.round(percentile(sorted, 50)), p99_ms: Math.round(percentile(sorted, 99)),
      });
    }
    return { levels, inference_workers: 1 };
  } finally {
    await app.stop();
  }
}
