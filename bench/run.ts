/**
 * `make bench`: runs each benchmark and prints its report as JSON lines. Benchmarks report
 * throughput and ratios against a reference measured in the same run, never pass/fail.
 * BENCH_ONLY=name runs one of them.
 */
import { benchEnumeration } from './enumeration.bench.js';
import { benchDocuments } from './documents.bench.js';

const BENCHES: Record<string, () => Promise<Record<string, unknown>>> = {
  documents: benchDocuments,
  enumeration: benchEnumeration,
};

const only = process.env.BENCH_ONLY;
for (const [name, run] of Object.entries(BENCHES)) {
  if (only && only !== name) continue;
  const started = Date.now();
  const report = await run();
  console.log(JSON.stringify({ bench: name, seconds: Math.round((Date.now() - started) / 1000), ...report }));
}
process.exit(0);
