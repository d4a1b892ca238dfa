import type { Redis } from 'ioredis';

export type WorkerRole = 'inference' | 'document';

/** Redis key of the sorted set holding each worker's last beat (score = ms since epoch). */
export const heartbeatKey = (prefix: string, role: WorkerRole) => `${prefix}:workers:${role}`;

/** Beats every `intervalMs` until stopped; the appliance counts beats younger than 3 intervals. */
export class Heartbeat {
  private timer?: NodeJS.Timeout;

  constructor(private readonly opts: { redis: Redis; prefix: string; role: WorkerRole; workerId: string; intervalMs: number; now?: () => number }) {}

  async start(): Promise<void> {
    await this.beat().catch(() => undefined);
    this.timer = setInterval(() => void this.beat().catch(() => undefined), this.opts.intervalMs);
  }

  private async beat(): Promise<void> {
    const now = this.opts.now?.() ?? Date.now();
    await this.opts.redis.zadd(heartbeatKey(this.opts.prefix, this.opts.role), now, this.opts.workerId);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.opts.redis.zrem(heartbeatKey(this.opts.prefix, this.opts.role), this.opts.workerId).catch(() => undefined);
  }
}

/** Workers of a role whose last beat is younger than three intervals; prunes the dead ones. */
export async function countAlive(redis: Redis, prefix: string, role: WorkerRole, intervalMs: number, now = Date.now()): Promise<number> {
  const key = heartbeatKey(prefix, role);
  const cutoff = now - 3 * intervalMs;
  await redis.zremrangebyscore(key, '-inf', `(${cutoff}`);
  return redis.zcount(key, cutoff, '+inf');
}
