import type { Redis } from 'ioredis';
import { type IndexPage, flatten, listIndexed, parseJson, updateIfExists } from './hash.js';
import { CONVERSION_RETENTION_SECONDS, v3Keys } from './keys.js';
import type { FormatStatus } from './pdf-store.js';

export interface ConversionRecord {
  conversion_id: string;
  app_id: string;
  group_id: string;
  created_at: string;
  modified_at: string;
  /** Requested extensions (spec 4.8 `formats`). */
  formats: Record<string, boolean>;
  conversion_options: Record<string, Record<string, unknown>>;
  metadata: Record<string, unknown>;
  conversion_status: Record<string, FormatStatus>;
}

export type NewConversion = Pick<ConversionRecord, 'conversion_id' | 'app_id' | 'group_id' | 'formats' | 'conversion_options' | 'metadata'>;

const JSON_FIELDS = ['formats', 'conversion_options', 'metadata', 'conversion_status'] as const;

/** /v3/converter records: a Redis hash per conversion_id plus a per-app index, status kept 90 days (spec 8). */
export class ConversionStore {
  readonly keys: ReturnType<typeof v3Keys>;

  constructor(
    readonly redis: Redis,
    prefix: string,
    private readonly now: () => number = Date.now,
  ) {
    this.keys = v3Keys(prefix);
  }

  async create(rec: NewConversion): Promise<ConversionRecord> {
    const iso = new Date(this.now()).toISOString();
    const conversion_status = Object.fromEntries(
      Object.entries(rec.formats)
        .filter(([, on]) => on)
        .map(([ext]) => [ext, { status: 'received' } as FormatStatus]),
    );
    const full: ConversionRecord = { ...rec, created_at: iso, modified_at: iso, conversion_status };
    const key = this.keys.conversion(rec.conversion_id);
    const index = this.keys.appConversions(rec.app_id);
    const now = this.now();
    await this.redis
      .multi()
      .hset(key, ...flatten({ ...full }))
      .expire(key, CONVERSION_RETENTION_SECONDS)
      .zadd(index, now, rec.conversion_id)
      // Entries past retention point at expired records: trim them as new ones arrive.
      .zremrangebyscore(index, '-inf', now - CONVERSION_RETENTION_SECONDS * 1000)
      .expire(index, CONVERSION_RETENTION_SECONDS)
      .exec();
    return full;
  }

  async get(conversionId: string): Promise<ConversionRecord | null> {
    const h = await this.redis.hgetall(this.keys.conversion(conversionId));
    if (!h.conversion_id) return null;
    const rec: Record<string, unknown> = { ...h };
    for (const f of JSON_FIELDS) rec[f] = parseJson(h[f], {});
    return rec as unknown as ConversionRecord;
  }

  /** Replaces the per-format statuses; false when the conversion was deleted meanwhile. */
  setStatus(conversionId: string, status: Record<string, FormatStatus>): Promise<boolean> {
    return updateIfExists(this.redis, this.keys.conversion(conversionId), { conversion_status: status, modified_at: new Date(this.now()).toISOString() });
  }

  async delete(conversionId: string): Promise<ConversionRecord | null> {
    const rec = await this.get(conversionId);
    if (rec) await this.redis.multi().del(this.keys.conversion(conversionId)).zrem(this.keys.appConversions(rec.app_id), conversionId).exec();
    return rec;
  }

  /** One page of an app's conversions, newest first, created within the window (listIndexed). */
  list(appId: string, q: IndexPage): Promise<ConversionRecord[]> {
    return listIndexed(this.redis, this.keys.appConversions(appId), q, (id) => this.get(id));
  }
}
