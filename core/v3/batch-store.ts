import type { Redis } from 'ioredis';

/** Legacy batch records are kept one week (4.5). */
export const BATCH_RETENTION_SECONDS = 7 * 86_400;

/** One image of a batch: its url key, URL and validated options (v3/latex or v3/text parameters). */
export interface BatchItem {
  key: string;
  url: string;
  options: Record<string, unknown>;
  /** Latex mode without formats: the answer also carries the legacy `latex` field (latex_normal). */
  legacyLatex?: boolean;
}

export interface BatchRecord {
  batch_id: string;
  app_id: string;
  group_id: string;
  created_at: string;
  ocr_behavior: 'latex' | 'text';
  items: BatchItem[];
  /** The legacy callback (6.3), when one was given. */
  callback?: { post: string; reply?: unknown; body?: Record<string, unknown>; headers?: Record<string, string> };
}

/**
 * /v3/batch records in Redis: one hash per batch, field `meta` the record and `r:<key>` each
 * image's result as it settles, so a GET sees partial results and two images settling at once
 * never overwrite each other. Open batches are listed in a set, so a restarted appliance resumes
 * them. Everything expires a week after submission.
 */
export class BatchStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key = (batchId: string) => `${this.prefix}:v3:batch:${batchId}`;
  private get openKey() {
    return `${this.prefix}:v3:batches:open`;
  }

  async create(rec: BatchRecord): Promise<void> {
    const key = this.key(rec.batch_id);
    await this.redis.multi().hset(key, 'meta', JSON.stringify(rec)).expire(key, BATCH_RETENTION_SECONDS).sadd(this.openKey, rec.batch_id).exec();
  }

  async get(batchId: string): Promise<{ record: BatchRecord; results: Record<string, unknown> } | null> {
    const h = await this.redis.hgetall(this.key(batchId));
    if (!h.meta) return null;
    const results: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(h)) if (field.startsWith('r:')) results[field.slice(2)] = JSON.parse(value);
    return { record: JSON.parse(h.meta) as BatchRecord, results };
  }

  /** Stores one image's result (only into a batch that still exists); returns how many images have settled. */
  async setResult(batchId: string, key: string, result: unknown): Promise<number> {
    const k = this.key(batchId);
    if (!(await this.redis.hexists(k, 'meta'))) return 0;
    const [, [, count]] = (await this.redis.multi().hset(k, `r:${key}`, JSON.stringify(result)).hlen(k).exec()) as [[null, number], [null, number]];
    return count - 1; // minus meta
  }

  /** Batches not yet closed. */
  async open(): Promise<string[]> {
    return this.redis.smembers(this.openKey);
  }

  async close(batchId: string): Promise<void> {
    await this.redis.srem(this.openKey, batchId);
  }
}
