/**
 * Scanned page → text, per core: Folio's printed-text engine (worker/engine/text, PP-OCR on
 * onnxruntime, one intra-op thread) against Debian's `tesseract` CLI (OMP_THREAD_LIMIT=1), both
 * pinned to core 0, on real documents rendered at 200 dpi, clean and noisy-skewed
 * (scanned-renders.ts). Seconds per page are CPU seconds on that core (user + system: the fair
 * per-core figure on a machine whose cores other work shares), with wall seconds beside them;
 * word recall and character error rate are against each page's text layer (ocr-scores.ts).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TextRecognizer } from '../worker/engine/text/index.js';
import { characterErrorRate, cjkCount, fullwidthCount, wordRecall } from './ocr-scores.js';
import { renderBenchPages, SCAN_BENCH_DPI } from './scanned-renders.js';

const run = promisify(execFile);

interface EngineScore {
  cpu_seconds_per_page: number;
  wall_seconds_per_page: number;
  word_recall: number;
  cer: number;
  fullwidth_chars: number;
  cjk_chars: number;
}

export interface RenderComparison {
  folio: EngineScore;
  tesseract: EngineScore;
  /** Folio's CPU seconds per page over Tesseract's: below 1, Folio is faster per core. */
  folio_to_tesseract_time: number;
}

export interface OcrComparison {
  pages: number;
  dpi: number;
  clean: RenderComparison;
  noisy_skewed: RenderComparison;
  tesseract_version: string;
}

export interface Reading {
  text: string;
  cpu: number;
  wall: number;
}

/** Pins every thread of this process to `cores` (taskset -a -p). */
export async function pin(cores: string): Promise<void> {
  await run('taskset', ['-a', '-p', '-c', cores, String(process.pid)]);
}

export async function folioRead(engine: TextRecognizer, image: Buffer): Promise<Reading> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const r = await engine.recognize(image);
  const used = process.cpuUsage(cpu);
  return { text: r.lines.map((l) => l.text).join('\n'), cpu: (used.user + used.system) / 1e6, wall: (performance.now() - t) / 1000 };
}

/** Runs tesseract on core 0 under bash, whose `times` reports the child's CPU seconds. */
export async function tesseractRead(dir: string, image: Buffer): Promise<Reading> {
  await writeFile(join(dir, 'in.png'), image);
  const t = performance.now();
  const script = `taskset -c 0 tesseract in.png out -l eng --dpi ${SCAN_BENCH_DPI} 2>/dev/null && times`;
  const { stdout } = await run('bash', ['-c', script], { cwd: dir, env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
  const wall = (performance.now() - t) / 1000;
  // `times`: the shell's user/system line, then its children's: "0m1.032s 0m0.191s"
  const seconds = stdout
    .trim()
    .split('\n')
    .at(-1)!
    .split(' ')
    .map((s) => {
      const m = /(\d+)m([\d.]+)s/.exec(s);
      return m ? Number(m[1]) * 60 + Number(m[2]) : 0;
    });
  return { text: await readFile(join(dir, 'out.txt'), 'utf8'), cpu: seconds[0]! + seconds[1]!, wall };
}

export function score(readings: Reading[], truths: string[]): EngineScore {
  const n = readings.length;
  const mean = (f: (r: Reading, i: number) => number) => Math.round((readings.reduce((s, r, i) => s + f(r, i), 0) / n) * 1000) / 1000;
  return {
    cpu_seconds_per_page: mean((r) => r.cpu),
    wall_seconds_per_page: mean((r) => r.wall),
    word_recall: mean((r, i) => wordRecall(truths[i]!, r.text)),
    cer: mean((r, i) => characterErrorRate(truths[i]!, r.text)),
    fullwidth_chars: readings.reduce((s, r) => s + fullwidthCount(r.text), 0),
    cjk_chars: readings.reduce((s, r) => s + cjkCount(r.text), 0),
  };
}

export async function benchOcrVsTesseract(): Promise<OcrComparison> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-bench-ocr-'));
  const pages = await renderBenchPages(dir);
  await pin('0');
  const engine = await TextRecognizer.load({ intraOpThreads: 1, executionProviders: ['cpu'] });
  try {
    await engine.recognize(pages[0]!.clean); // warm-up: the first run allocates
    const truths = pages.map((p) => p.truth);
    const compare = async (render: 'clean' | 'noisy'): Promise<RenderComparison> => {
      const folio: Reading[] = [];
      const tesseract: Reading[] = [];
      for (const p of pages) {
        folio.push(await folioRead(engine, p[render]));
        tesseract.push(await tesseractRead(dir, p[render]));
      }
      const f = score(folio, truths);
      const t = score(tesseract, truths);
      return { folio: f, tesseract: t, folio_to_tesseract_time: Math.round((f.cpu_seconds_per_page / t.cpu_seconds_per_page) * 100) / 100 };
    };
    const clean = await compare('clean');
    const noisy = await compare('noisy');
    const version = (await run('tesseract', ['--version'])).stdout.split('\n')[0]!.trim();
    return { pages: pages.length, dpi: SCAN_BENCH_DPI, clean, noisy_skewed: noisy, tesseract_version: version };
  } finally {
    await engine.release();
    await pin(`0-${cpus().length - 1}`);
    await rm(dir, { recursive: true, force: true });
  }
}
