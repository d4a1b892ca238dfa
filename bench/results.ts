/**
 * Writes one run's reports to bench/RESULTS.md (one table, with the machine, date and commit)
 * and its plots to bench/plots/*.png.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { barChart, lineChart, toPng } from './charts.js';
import type { OcrComparison } from './ocr-vs-tesseract.bench.js';
import type { LevelResult } from './text-concurrency.bench.js';
import type { ScalingResult } from './worker-scaling.bench.js';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));

export type Reports = Record<string, Record<string, unknown>>;

/** Machine facts, taken when the run starts (the load average says how shared the cores were). */
export function machine(): { cores: number; cpu: string; load: string; date: string; commit: string } {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    if (execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' }).trim()) commit += ' (with uncommitted changes)';
  } catch {
    // not a git checkout
  }
  return {
    cores: cpus().length,
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    load: loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    commit,
  };
}

/** Table rows of one report: nested objects and arrays of objects become "a / b" measures. */
function rows(bench: string, value: unknown, path: string[] = []): string[] {
  if (Array.isArray(value) && value.every((v) => v && typeof v === 'object')) {
    return value.flatMap((item) => {
      const [k, v] = Object.entries(item as object)[0]!;
      const rest = Object.fromEntries(Object.entries(item as object).slice(1));
      return rows(bench, rest, [...path, `${k} ${v}`]);
    });
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([k, v]) => rows(bench, v, [...path, k]));
  }
  return [`| ${bench} | ${path.join(' / ').replace(/_/g, ' ')} | ${Array.isArray(value) ? value.join(', ') : String(value)} |`];
}

function plots(reports: Reports): { file: string; svg: string }[] {
  const out: { file: string; svg: string }[] = [];
  const text = reports['text-concurrency'] as { levels?: LevelResult[] } | undefined;
  if (text?.levels?.length) {
    const x = text.levels.map((l) => l.clients);
    out.push({
      file: 'text-latency.png',
      svg: lineChart({
        title: 'POST /v3/text latency, one inference worker',
        xLabel: 'concurrent clients',
        yLabel: 'milliseconds',
        x,
        series: [
          { name: 'p50', values: text.levels.map((l) => l.p50_ms) },
          { name: 'p99', values: text.levels.map((l) => l.p99_ms) },
        ],
      }),
    });
    out.push({
      file: 'text-throughput.png',
      svg: lineChart({
        title: 'POST /v3/text throughput',
        xLabel: 'concurrent clients',
        yLabel: 'requests per second',
        x,
        series: [{ name: 'requests/s', values: text.levels.map((l) => l.requests_per_second) }],
      }),
    });
  }
  const scaling = reports['worker-scaling'] as { runs?: ScalingResult[] } | undefined;
  if (scaling?.runs?.length) {
    out.push({
      file: 'worker-scaling.png',
      svg: barChart({
        title: 'Born-digital pages per minute by document workers',
        yLabel: 'pages per minute',
        categories: scaling.runs.map((r) => `${r.document_workers} worker${r.document_workers > 1 ? 's' : ''}`),
        series: [{ name: 'pages/min', values: scaling.runs.map((r) => r.pages_per_minute) }],
      }),
    });
  }
  const ocr = reports['ocr-vs-tesseract'] as unknown as OcrComparison | undefined;
  if (ocr?.pages) {
    const categories = ['clean', 'noisy, skewed'];
    const series = (f: (s: OcrComparison['clean']['folio']) => number) => [
      { name: 'Folio', values: [f(ocr.clean.folio), f(ocr.noisy_skewed.folio)] },
      { name: 'Tesseract', values: [f(ocr.clean.tesseract), f(ocr.noisy_skewed.tesseract)] },
    ];
    out.push({
      file: 'ocr-seconds-per-page.png',
      svg: barChart({
        title: `Scanned page OCR, one core (${ocr.pages} pages, ${ocr.dpi} dpi)`,
        yLabel: 'CPU seconds per page',
        categories,
        series: series((s) => s.cpu_seconds_per_page),
      }),
    });
    out.push({
      file: 'ocr-cer.png',
      svg: barChart({ title: `Character error rate (${ocr.pages} pages, ${ocr.dpi} dpi)`, yLabel: 'CER', categories, series: series((s) => s.cer) }),
    });
  }
  return out;
}

export function writeResults(reports: Reports, m: ReturnType<typeof machine>): void {
  const charts = plots(reports);
  mkdirSync(join(BENCH_DIR, 'plots'), { recursive: true });
  for (const c of charts) writeFileSync(join(BENCH_DIR, 'plots', c.file), toPng(c.svg));
  const md = [
    '# Folio benchmark results',
    '',
    `\`make bench\` on ${m.date}, commit ${m.commit}: ${m.cores} cores (${m.cpu}), load average ${m.load} at the start.`,
    'One run on one machine whose cores other work may share: read the ratios and the shapes, not the absolute numbers.',
    '',
    '| Benchmark | Measure | Value |',
    '|---|---|---|',
    ...Object.entries(reports).flatMap(([bench, report]) => rows(bench, report)),
    '',
    ...charts.map((c) => `![${c.file.replace(/\.png$/, '')}](plots/${c.file})`),
    '',
  ].join('\n');
  writeFileSync(join(BENCH_DIR, 'RESULTS.md'), md);
}
