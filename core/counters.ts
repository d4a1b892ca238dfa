import type { Redis } from 'ioredis';

/**
 * Process-wide totals that every worker adds to and the appliance exposes on /metrics. They live
 * in Redis so a worker restart never resets them (Prometheus counters must only go up).
 */
export const COUNTERS = [
  'pages_completed',
  'pages_failed',
  'documents_completed',
  'documents_failed',
  'images_completed',
  'images_failed',
  'pages_billable',
  'documents_billable',
  'images_billable',
] as const;
export type CounterName = (typeof COUNTERS)[number];

/** Upper bounds of pco_page_seconds, up to and past the default 15 s per-page timeout. */
export const PAGE_SECONDS_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 15, 30];

const countersKey = (prefix: string) => `${prefix}:metrics:counters`;
const histogramKey = (prefix: string) => `${prefix}:metrics:page_seconds`;

const byMinuteKey = (prefix: string) => `${prefix}:metrics:pages_by_minute`;
/** Minutes of per-minute page history kept for the console's throughput chart. */
export const THROUGHPUT_HISTORY_MINUTES = 24 * 60;

export async function addCounters(redis: Redis, prefix: string, deltas: Partial<Record<CounterName, number>>, now = Date.now()): Promise<void> {
  const m = redis.multi();
  for (const [k, v] of Object.entries(deltas)) if (v) m.hincrby(countersKey(prefix), k, v);
  // Pages completed per minute, so throughput has a history that survives the console being closed.
  if (deltas.pages_completed) m.hincrby(byMinuteKey(prefix), String(Math.floor(now / 60_000)), deltas.pages_completed);
  await m.exec();
}

/** Pages completed in each of the last `minutes` whole minutes (oldest first, zeros included). */
export async function readPagesByMinute(redis: Redis, prefix: string, minutes: number, now = Date.now()): Promise<{ minute: number; pages: number }[]> {
  const raw = await redis.hgetall(byMinuteKey(prefix));
  const current = Math.floor(now / 60_000);
  const stale = Object.keys(raw).filter((k) => Number(k) < current - THROUGHPUT_HISTORY_MINUTES);
  if (stale.length) await redis.hdel(byMinuteKey(prefix), ...stale);
  return Array.from({ length: minutes }, (_, i) => {
    const minute = current - minutes + 1 + i;
    return { minute: minute * 60_000, pages: Number(raw[String(minute)] ?? 0) };
  });
}

export async function readCounters(redis: Redis, prefix: string): Promise<Record<CounterName, number>> {
  const raw = await redis.hgetall(countersKey(prefix));
  return Object.fromEntries(COUNTERS.map((c) => [c, Number(raw[c] ?? 0)])) as Record<CounterName, number>;
}

/** Records one page's processing time into the shared histogram. */
export async function observePageSeconds(redis: Redis, prefix: string, seconds: number): Promise<void> {
  const bucket = PAGE_SECONDS_BUCKETS.find((b) => seconds <= b);
  const m = redis.multi();
  m.hincrby(histogramKey(prefix), `le:${bucket ?? '+Inf'}`, 1);
  m.hincrby(histogramKey(prefix), 'count', 1);
  m.hincrbyfloat(histogramKey(prefix), 'sum', seconds);
  await m.exec();
}

export interface HistogramState {
  /** Cumulative counts per upper bound, '+Inf' last. */
  buckets: { le: string; count: number }[];
  sum: number;
  count: number;
}

export async function readPageSeconds(redis: Redis, prefix: string): Promise<HistogramState> {
  const raw = await redis.hgetall(histogramKey(prefix));
  let running = 0;
  const buckets = [...PAGE_SECONDS_BUCKETS.map(String), '+Inf'].map((le) => {
    running += Number(raw[`le:${le}`] ?? 0);
    return { le, count: running };
  });
  return { buckets, sum: Number(raw.sum ?? 0), count: Number(raw.count ?? 0) };
}
