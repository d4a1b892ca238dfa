/**
 * Files API at its limit: POST /files/v1/jobs with 200,000 items on an appliance with no workers,
 * so only the submission path is measured (parse, plan, chunked writes, release to the
 * dispatcher's window). Reference in the same run: a 20,000-item job, so the ratio shows whether
 * acceptance grows linearly. While the big job is accepted, GET /health is asked every 10 ms:
 * the worst answer time is how long other callers wait on the appliance meanwhile.
 */
import { spawnAppliance } from '../test/support/appliance.js';
import { pcoClient } from '../test/support/pco-client.js';
import { memoryMiB } from '../test/support/proc-memory.js';

const BIG = 200_000;
const REFERENCE = 20_000;
const PROBE_EVERY_MS = 10;

export async function benchFilesJob(): Promise<Record<string, unknown>> {
  const app = await spawnAppliance(
    { FOLIO_SPAWN_WORKERS: 'false', FOLIO_DOCUMENT_WORKERS: '0', FOLIO_INFERENCE_WORKERS: '0', FOLIO_ALLOW_PRIVATE_URLS: 'true', FOLIO_LOG_LEVEL: 'error' },
    { waitHealthy: false },
  );
  try {
    const auth = await pcoClient(app.url).newKey();
    // The body is built before anything is timed or probed: JSON.stringify of 17 MB holds this
    // process's own event loop, which the probes share.
    const prepare = (items: number, tag: string) => {
      const files = Array.from({ length: items }, (_, i) => ({ source_uri: `http://127.0.0.1:9/${tag}/paper-${i}.pdf`, filename: `paper-${i}.pdf` }));
      return { items, body: JSON.stringify({ files }), headers: { ...auth, 'content-type': 'application/json', 'Idempotency-Key': `${tag}-${Date.now()}` } };
    };
    const submit = async ({ items, body, headers }: ReturnType<typeof prepare>) => {
      const t0 = performance.now();
      const res = await fetch(`${app.url}/files/v1/jobs`, { method: 'POST', headers, body });
      const accepted = (await res.json()) as { file_count?: number };
      if (res.status !== 200 || accepted.file_count !== items)
        throw new Error(`job of ${items} refused: ${res.status} ${JSON.stringify(accepted).slice(0, 200)}`);
      const ms = performance.now() - t0;
      const t1 = performance.now();
      await (await fetch(`${app.url}/files/v1/jobs`, { method: 'POST', headers, body })).json();
      return { ms, replayMs: performance.now() - t1, bodyMb: body.length / 1e6 };
    };
    const reference = await submit(prepare(REFERENCE, 'reference'));
    const bigRequest = prepare(BIG, 'big');
    await (await fetch(`${app.url}/health`)).arrayBuffer(); // its first answer builds what later ones reuse
    const before = memoryMiB(app.proc.pid!);
    const probes = probeHealth(app.url);
    const big = await submit(bigRequest);
    const waits = await probes.stop();
    const after = memoryMiB(app.proc.pid!);
    const perSecond = (items: number, ms: number) => Math.round(items / (ms / 1000));
    return {
      items: BIG,
      body_mb: Math.round(big.bodyMb * 10) / 10,
      accept_seconds: Math.round(big.ms / 10) / 100,
      accepted_items_per_second: perSecond(BIG, big.ms),
      reference_items: REFERENCE,
      reference_items_per_second: perSecond(REFERENCE, reference.ms),
      ratio_to_reference_rate: Math.round((perSecond(BIG, big.ms) / perSecond(REFERENCE, reference.ms)) * 100) / 100,
      idempotent_replay_seconds: Math.round(big.replayMs / 10) / 100,
      health_wait_during_accept_ms: { probes: waits.length, p50: percentile(waits, 0.5), p99: percentile(waits, 0.99), worst: Math.round(Math.max(...waits)) },
      appliance_rss_mb: { before: before.rss, after: after.rss, peak: after.peak },
    };
  } finally {
    await app.stop();
  }
}

/** Asks GET /health every PROBE_EVERY_MS (one at a time) until stopped; the answer times in ms. */
function probeHealth(base: string): { stop: () => Promise<number[]> } {
  const waits: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t = performance.now();
      await fetch(`${base}/health`).then((r) => r.arrayBuffer());
      waits.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return waits;
    },
  };
}

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
}
