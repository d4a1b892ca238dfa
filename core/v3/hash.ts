import type { Redis } from 'ioredis';

/**
 * Guarded writes to a record hash. A record deleted (DELETE /v3/pdf) while a worker still runs
 * must stay deleted: every write here is a no-op when the hash is gone, instead of an HSET that
 * would bring back a half record without its TTL.
 */

const UPDATE_IF_EXISTS = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1`;

// ARGV[1]: allowed current statuses, comma-separated; ARGV[2..]: field/value pairs to set on a move.
const TRANSITION = `
local s = redis.call('HGET', KEYS[1], 'status')
if not s then return 0 end
for allowed in string.gmatch(ARGV[1], '[^,]+') do
  if s == allowed then
    redis.call('HSET', KEYS[1], unpack(ARGV, 2))
    return 1
  end
end
return 0`;

const INCR_IF_EXISTS = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[1], ARGV[3], ARGV[4])
return 1`;

/** Hash field values: strings as they are, everything else as JSON. */
export function flatten(fields: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    out.push(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return out;
}

export async function updateIfExists(redis: Redis, key: string, fields: Record<string, unknown>): Promise<boolean> {
  const args = flatten(fields);
  if (!args.length) return (await redis.exists(key)) === 1;
  return (await redis.eval(UPDATE_IF_EXISTS, 1, key, ...args)) === 1;
}

/** Sets `fields` only when the record's status is one of `from` (and the record exists). */
export async function transition(redis: Redis, key: string, from: readonly string[], fields: Record<string, unknown>): Promise<boolean> {
  return (await redis.eval(TRANSITION, 1, key, from.join(','), ...flatten(fields))) === 1;
}

/** HINCRBY on an existing record, stamping `stampField` in the same step. */
export async function incrIfExists(redis: Redis, key: string, field: string, by: number, stampField: string, stamp: string): Promise<boolean> {
  return (await redis.eval(INCR_IF_EXISTS, 1, key, field, String(by), stampField, stamp)) === 1;
}

export function parseJson<T>(raw: string | undefined, fallback: T): T {
  if (raw === undefined) return fallback;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}

/** A page of a history index (a sorted set of ids scored by creation time). */
export interface IndexPage {
  fromMs: number;
  toMs: number;
  offset: number;
  count: number;
}

/**
 * One page of the records a creation-time index lists, newest first, created within [fromMs,
 * toMs] (±Infinity for open ends); entries whose record has gone (expired) are dropped as met.
 */
export async function listIndexed<T>(redis: Redis, index: string, q: IndexPage, get: (id: string) => Promise<T | null>): Promise<T[]> {
  const bound = (ms: number) => (Number.isFinite(ms) ? ms : ms > 0 ? '+inf' : '-inf');
  const ids = await redis.zrevrangebyscore(index, bound(q.toMs), bound(q.fromMs), 'LIMIT', q.offset, q.count);
  const records = await Promise.all(ids.map(get));
  const gone = ids.filter((_, i) => !records[i]);
  if (gone.length) await redis.zrem(index, ...gone);
  return records.filter((r): r is Awaited<T> => r !== null) as T[];
}
