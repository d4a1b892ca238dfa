import { Gauge, Registry } from 'prom-client';
import type { Redis } from 'ioredis';
import { COUNTERS, type CounterName, readCounters, readPageSeconds } from '../../core/counters.js';
import { LICENSE_STATUSES } from '../../license/state.js';
import type { OpsSnapshot } from './snapshot.js';

export interface MetricsSources {
  snapshot: () => Promise<OpsSnapshot>;
  redis: Redis;
  prefix: string;
  gpuExpected: number;
  documentExpected: number;
  textInFlight: () => number;
  usage: () => Promise<{ reportAgeSeconds: number; daysPending: number }>;
}

const COUNTER_HELP: Record<CounterName, string> = {
  pages_completed: 'Pages recognised successfully',
  pages_failed: 'Pages that failed',
  documents_completed: 'Documents completed',
  documents_failed: 'Documents failed',
  images_completed: 'Text images that returned a result',
  images_failed: 'Text images that failed',
  pages_billable: 'Pages of documents completed with no failed page',
  documents_billable: 'Documents completed with no failed page',
  images_billable: 'Text images billed',
};

/**
 * The /metrics registry of spec 4.14. Gauges are read from one snapshot per scrape; counters and
 * the page histogram are read from Redis, where every worker adds to them.
 */
export function createMetricsRegistry(src: MetricsSources, register = new Registry()): Registry {
  let current: Promise<OpsSnapshot> | undefined;
  // One snapshot per scrape, shared by every gauge's collect().
  const snap = () => (current ??= src.snapshot().finally(() => setTimeout(() => (current = undefined), 0)));
  const gauge = (name: string, help: string, read: (s: OpsSnapshot) => number) =>
    new Gauge({
      name,
      help,
      registers: [register],
      async collect() {
        this.set(read(await snap()));
      },
    });

  gauge('pco_gpu_workers_alive', 'Inference workers with a recent heartbeat', (s) => s.gpuWorkersAlive);
  gauge('pco_gpu_workers_expected', 'Inference workers this deployment expects', () => src.gpuExpected);
  gauge('pco_document_workers_alive', 'Document workers with a recent heartbeat', (s) => s.documentWorkersAlive);
  gauge('pco_document_workers_expected', 'Document workers this deployment expects', () => src.documentExpected);
  gauge('pco_redis_connected', '1 when the state store answers', (s) => Number(s.redisConnected));
  gauge('pco_storage_connected', '1 when the result bucket answers', (s) => Number(s.storageConnected));
  gauge('pco_license_seconds_since_verified', 'Seconds since the last successful licence check (-1: never)', (s) => s.license.secondsSinceVerified ?? -1);
  gauge('pco_text_requests_in_flight', 'Synchronous text requests being served', () => src.textInFlight());
  new Gauge({
    name: 'pco_queue_depth',
    help: 'Tasks waiting, delayed or active per queue',
    labelNames: ['queue'],
    registers: [register],
    async collect() {
      this.reset();
      for (const [queue, n] of Object.entries((await snap()).queueDepths)) this.set({ queue }, n);
    },
  });
  new Gauge({
    name: 'pco_license_status',
    help: '1 for the current licence status',
    labelNames: ['status'],
    registers: [register],
    async collect() {
      const s = (await snap()).license.status;
      for (const status of LICENSE_STATUSES) this.set({ status }, Number(s === status));
    },
  });
  let usage: Promise<{ reportAgeSeconds: number; daysPending: number }> | undefined;
  const readUsage = () => (usage ??= src.usage().finally(() => setTimeout(() => (usage = undefined), 0)));
  new Gauge({
    name: 'pco_usage_report_age_seconds',
    help: 'Seconds since usage was last reported (-1: never)',
    registers: [register],
    async collect() {
      this.set((await readUsage()).reportAgeSeconds);
    },
  });
  new Gauge({
    name: 'pco_usage_days_pending',
    help: 'Usage days not yet reported',
    registers: [register],
    async collect() {
      this.set((await readUsage()).daysPending);
    },
  });

  registerRedisCounters(register, src);
  return register;
}

/** Counters and the histogram as custom collectors: their values are totals kept in Redis. */
function registerRedisCounters(register: Registry, src: MetricsSources): void {
  const zeroOnError = <T>(p: Promise<T>, fallback: T) => p.catch(() => fallback);
  for (const c of COUNTERS) {
    const name = `pco_${c}_total`;
    register.registerMetric({
      name,
      help: COUNTER_HELP[c],
      type: 'counter',
      aggregator: 'sum',
      async get() {
        const all = await zeroOnError(readCounters(src.redis, src.prefix), {} as Record<CounterName, number>);
        return { name, help: COUNTER_HELP[c], type: 'counter', aggregator: 'sum', values: [{ value: all[c] ?? 0, labels: {} }] };
      },
      reset() {},
    } as never);
  }
  const name = 'pco_page_seconds';
  const help = 'Seconds to process one page';
  register.registerMetric({
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    async get() {
      const h = await zeroOnError(readPageSeconds(src.redis, src.prefix), { buckets: [{ le: '+Inf', count: 0 }], sum: 0, count: 0 });
      return {
        name,
        help,
        type: 'histogram',
        aggregator: 'sum',
        values: [
          ...h.buckets.map((b) => ({ metricName: `${name}_bucket`, labels: { le: b.le }, value: b.count })),
          { metricName: `${name}_sum`, labels: {}, value: h.sum },
          { metricName: `${name}_count`, labels: {}, value: h.count },
        ],
      };
    },
    reset() {},
  } as never);
}
