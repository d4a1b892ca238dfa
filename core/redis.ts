import { Redis, type RedisOptions } from 'ioredis';

/**
 * A Redis client for Folio's own records. Commands fail fast while Redis is away (no offline
 * queue), so /health can answer within a second; BullMQ connections use bullmqConnection().
 */
export function createRedis(url: string, opts: RedisOptions = {}): Redis {
  return open(url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
    retryStrategy: (n) => Math.min(100 * n, 1000),
    ...opts,
  });
}

/** Connection for BullMQ queues and workers: they must retry forever while Redis restarts. */
export function bullmqConnection(url: string): Redis {
  return open(url, {
    maxRetriesPerRequest: null,
    enableOfflineQueue: true,
    retryStrategy: (n) => Math.min(100 * n, 2000),
  });
}

/** Races a Redis call against a deadline so callers never hang on a dead server. */
export async function withDeadline<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, rej) => {
        timer = setTimeout(() => rej(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** redis://, rediss:// or unix:///path/to/redis.sock (the private server of single-node mode). */
function open(url: string, opts: RedisOptions): Redis {
  if (url.startsWith('unix://')) return new Redis({ ...opts, path: new URL(url).pathname });
  return new Redis(url, opts);
}

/** Resolves once the client is connected; a freshly started redis-server takes a moment. */
export async function waitReady(redis: Redis, timeoutMs = 15_000): Promise<void> {
  if (redis.status === 'ready') return;
  await withDeadline(new Promise<void>((resolve) => redis.once('ready', () => resolve())), timeoutMs).catch(() => {
    throw new Error(`Redis did not become ready within ${timeoutMs} ms`);
  });
}
