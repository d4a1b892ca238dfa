/**
 * POST /v3/text under rising concurrency (1, 2, 4, 8, 16 clients) against a running appliance
 * with one inference worker: each client sends its requests back to back with the same
 * paragraph image; reports requests per second and latency percentiles per level. Before the
 * levels, one client measures the latency of a one-formula image and of a full page (150 dpi).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { spawnAppliance } from '../test/support/appliance.js';
import { headingAndParagraphsPdf } from '../test/support/pdf-fixtures.js';
import { renderLatex } from '../test/integration/v3-math-support.js';

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

/** Requests for each single-client latency measurement (one formula, one full page). */
const LATENCY_REQUESTS = Number(process.env.BENCH_TEXT_LATENCY_REQUESTS ?? 16);

/** The heading and first paragraph of the fixture page at 150 dpi (`height` px of it): a typical /v3/text image. */
async function paragraphPng(height: number | null = 420): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-bench-text-'));
  try {
    await writeFile(join(dir, 'in.pdf'), await headingAndParagraphsPdf());
    await run('pdftoppm', ['-r', '150', '-png', '-singlefile', join(dir, 'in.pdf'), join(dir, 'page')]);
    const page = await readFile(join(dir, 'page.png'));
    if (height === null) return page;
    const { width } = await sharp(page).metadata();
    return sharp(page).extract({ left: 0, top: 0, width: width!, height }).png().toBuffer();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export interface LatencyResult {
  requests: number;
  p50_ms: number;
  p99_ms: number;
}

export async function benchTextConcurrency(): Promise<{
  one_formula: LatencyResult;
  full_page: LatencyResult;
  levels: LevelResult[];
  inference_workers: number;
}> {
  const app = await spawnAppliance({
    FOLIO_INFERENCE_WORKERS: '1',
    FOLIO_DOCUMENT_WORKERS: '0',
    FOLIO_DOCUMENT_WORKERS_EXPECTED: '0',
    FOLIO_TEXT_REQUESTS_MAX: '16',
    FOLIO_LOG_LEVEL: 'error',
  });
  try {
    const json = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as any };
    };
    const made = await json('/pco/v1/apps', { name: `bench-text-${Date.now()}` });
    const auth = { app_id: made.body.app_id, app_key: (await json(`/pco/v1/apps/${made.body.app_id}/keys`, {})).body.app_key };
    const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;
    const src = dataUrl(await paragraphPng());
    const once = async (image = src) => {
      const t = performance.now();
      const r = await json('/v3/text', { src: image }, auth);
      return { ms: performance.now() - t, ok: r.status === 200 && !r.body.error };
    };
    for (let i = 0; i < 3; i++) await once(); // warm-up: model sessions, first-run allocations
    const latency = async (image: string): Promise<LatencyResult> => {
      const sorted: number[] = [];
      for (let i = 0; i < LATENCY_REQUESTS; i++) sorted.push((await once(image)).ms);
      sorted.sort((a, b) => a - b);
      return { requests: sorted.length, p50_ms: Math.round(percentile(sorted, 50)), p99_ms: Math.round(percentile(sorted, 99)) };
    };
    const one_formula = await latency(dataUrl(await renderLatex(String.raw`\[ x = \frac{-b \pm \sqrt{b^{2}-4ac}}{2a} \]`)));
    const full_page = await latency(dataUrl(await paragraphPng(null)));
    const levels: LevelResult[] = [];
    for (const clients of LEVELS) {
      const perClient = Math.max(1, Math.ceil(REQUESTS_PER_LEVEL / clients));
      const samples: { ms: number; ok: boolean }[] = [];
      const t = performance.now();
      await Promise.all(
        Array.from({ length: clients }, async () => {
          for (let i = 0; i < perClient; i++) samples.push(await once());
        }),
      );
      const seconds = (performance.now() - t) / 1000;
      const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
      levels.push({
        clients,
        requests: samples.length,
        errors: samples.filter((s) => !s.ok).length,
        requests_per_second: Math.round((samples.length / seconds) * 100) / 100,
        p50_ms: Math.round(percentile(sorted, 50)),
        p99_ms: Math.round(percentile(sorted, 99)),
      });
    }
    return { one_formula, full_page, levels, inference_workers: 1 };
  } finally {
    await app.stop();
  }
}
