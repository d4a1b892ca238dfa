/**
 * `make bench`: runs each benchmark, prints its report as a JSON line, then writes them all to
 * bench/RESULTS.md and bench/plots/. Benchmarks report throughput and ratios against a reference
 * measured in the same run, never pass/fail. BENCH_ONLY=name[,name] runs some of them.
 */
import { benchEnumeration } from './enumeration.bench.js';
import { benchDocuments } from './documents.bench.js';
import { benchFilesJob } from './files-job.bench.js';
import { benchMathFormulas } from './math-formulas.bench.js';
import { benchOcrVsTesseract } from './ocr-vs-tesseract.bench.js';
import { benchScannedJob } from './scanned-job.bench.js';
import { benchTextConcurrency } from './text-concurrency.bench.js';
import { benchWorkerMemory } from './worker-memory.bench.js';
import { benchWorkerScaling } from './worker-scaling.bench.js';
import { machine, type Reports, writeResults } from './results.js';

const BENCHES: Record<string, () => Promise<object>> = {
  documents: benchDocuments,
  'ocr-vs-tesseract': benchOcrVsTesseract,
  'scanned-job': benchScannedJob,
  'math-formulas': benchMathFormulas,
  'text-concurrency': benchTextConcurrency,
  'worker-scaling': benchWorkerScaling,
  'worker-memory': benchWorkerMemory,
  enumeration: benchEnumeration,
  'files-job': benchFilesJob,
};

const only = process.env.BENCH_ONLY?.split(',');
const m = machine();
const reports: Reports = {};
for (const [name, run] of Object.entries(BENCHES)) {
  if (only && !only.includes(name)) continue;
  const started = Date.now();
  const report = { seconds: 0, ...(await run()) };
  report.seconds = Math.round((Date.now() - started) / 1000);
  reports[name] = report;
  console.log(JSON.stringify({ bench: name, ...report }));
}
writeResults(reports, m);
process.exit(0);
