import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import { FILE_STATUSES, type FileStatus, type JobSpec, type JobStatus } from './job-spec.js';
import { JOB_TTL_SECONDS, pcoKeys } from './keys.js';

const TRANSITION_LUA = readFileSync(new URL('./transition.lua', import.meta.url), 'utf8');
const SETTLE_CHECK_LUA = `
local es = redis.call('HGET', KEYS[1], 'enum_status')
if (es == 'completed' or es == 'cancelled' or es == 'error')
  and redis.call('ZCARD', ARGV[1] .. 'queued') == 0
  and redis.call('ZCARD', ARGV[1] .. 'processing') == 0
  and redis.call('HSETNX', KEYS[1], 'settling', '1') == 1 then return 1 end
return 0`;

/**
 * Reopens a finished job for a retry, atomically: only a job whose status is completed,
 * completed_with_failures or error, not cancelled and not settling, moves to processing (its
 * settle marks cleared, its generation raised); returns the new generation, or 0 when another
 * caller or the job's state got there first.
 */
const REOPEN_LUA = `
local s = redis.call('HGET', KEYS[1], 'status')
if (s ~= 'completed' and s ~= 'completed_with_failures' and s ~= 'error')
  or redis.call('HGET', KEYS[1], 'cancelled') == '1'
  or (redis.call('HGET', KEYS[1], 'settling') == '1' and not redis.call('HGET', KEYS[1], 'finished_at')) then return 0 end
redis.call('HDEL', KEYS[1], 'settling', 'finished_at', 'manifest_error')
redis.call('HSET', KEYS[1], 'status', 'processing')
return redis.call('HINCRBY', KEYS[1], 'generation', 1)`;

export interface JobRecord {
  jobId: string;
  spec: JobSpec;
  status: JobStatus;
  settling: boolean;
  cancelled: boolean;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  enum_status: 'running' | 'completed' | 'cancelled' | 'error';
  files_listed: number;
  files_excluded: number;
  pages_completed: number;
  pages_failed: number;
  counts: Record<FileStatus, number>;
  manifest_uri: string | null;
  error_info: { id: string; message: string } | null;
}

export interface FileRecord {
  document_id: string;
  key: string;
  sourceUri: string;
  status: FileStatus;
  pages: number;
  pages_failed: number;
  attempts: number;
  generation: number;
  error_id: string | null;
  error_message: string | null;
  outputs: Record<string, string>;
  page_errors: { page: number; error_id: string; error_message: string }[];
  conversion_status: Record<string, { status: string; error_id?: string }>;
  started_at: string | null;
  finished_at: string | null;
}

export interface TransitionMove {
  jobId: string;
  documentId: string;
  from: FileStatus[] | '-' | '*';
  to: FileStatus;
  fields?: Record<string, unknown>;
  pages?: { completed?: number; failed?: number };
}

export interface TransitionResult {
  moved: boolean;
  settleNow: boolean;
  previous: FileStatus | '';
}

/** Job and file records of the private cloud, in Redis so every process shares them. */
export class PcoStore {
  readonly keys: ReturnType<typeof pcoKeys>;

  constructor(
    readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = pcoKeys(prefix);
    // A named command is sent as EVALSHA and can be pipelined (enumeration batches hundreds).
    if (!('folioPcoTransition' in redis)) redis.defineCommand('folioPcoTransition', { numberOfKeys: 2, lua: TRANSITION_LUA });
  }

  /** Creates the job unless it exists; true when this call created it. */
  async createJob(jobId: string, spec: JobSpec, now: number): Promise<boolean> {
    const key = this.keys.job(jobId);
    const created = await this.redis.hsetnx(key, 'spec', JSON.stringify(spec));
    if (!created) return false;
    const iso = new Date(now).toISOString();
    await this.redis
      .multi()
      .hset(key, {
        status: 'enumerating',
        created_at: iso,
        started_at: iso,
        enum_status: 'running',
        files_listed: 0,
        files_excluded: 0,
        pages_completed: 0,
        pages_failed: 0,
      })
      .expire(key, JOB_TTL_SECONDS)
      .zadd(this.keys.jobs, now, jobId)
      .exec();
    return true;
  }

  async getJob(jobId: string): Promise<JobRecord | null> {
    const h = await this.redis.hgetall(this.keys.job(jobId));
    if (!h.spec) return null;
    const counts = await this.counts(jobId);
    return {
      jobId,
      spec: JSON.parse(h.spec),
      status: h.status as JobStatus,
      settling: h.settling === '1' && !h.finished_at,
      cancelled: h.cancelled === '1',
      created_at: h.created_at!,
      started_at: h.started_at ?? null,
      finished_at: h.finished_at ?? null,
      enum_status: h.enum_status as JobRecord['enum_status'],
      files_listed: Number(h.files_listed ?? 0),
      files_excluded: Number(h.files_excluded ?? 0),
      pages_completed: Number(h.pages_completed ?? 0),
      pages_failed: Number(h.pages_failed ?? 0),
      counts,
      manifest_uri: h.manifest_uri ?? null,
      error_info: h.error_info ? JSON.parse(h.error_info) : null,
    };
  }

  async counts(jobId: string): Promise<Record<FileStatus, number>> {
    const m = this.redis.multi();
    for (const s of FILE_STATUSES) m.zcard(this.keys.statusSet(jobId, s));
    const res = (await m.exec()) ?? [];
    return Object.fromEntries(FILE_STATUSES.map((s, i) => [s, Number(res[i]?.[1] ?? 0)])) as Record<FileStatus, number>;
  }

  async updateJob(jobId: string, fields: Record<string, string | number>): Promise<void> {
    await this.redis.hset(this.keys.job(jobId), fields);
  }

  /** REOPEN_LUA: the job's new generation, or 0 when it could not be reopened. */
  async reopenForRetry(jobId: string): Promise<number> {
    return Number(await this.redis.eval(REOPEN_LUA, 1, this.keys.job(jobId)));
  }

  async incrJob(jobId: string, field: 'files_listed' | 'files_excluded', by: number): Promise<void> {
    if (by) await this.redis.hincrby(this.keys.job(jobId), field, by);
  }

  /**
   * Moves a file to `to` if its current status is one of `from` ('-' = must not exist yet),
   * setting `fields` (null deletes a field) and adding page deltas to the job, atomically.
   */
  async transition(
    jobId: string,
    documentId: string,
    from: FileStatus[] | '-' | '*',
    to: FileStatus,
    fields: Record<string, unknown> = {},
    pages: { completed?: number; failed?: number } = {},
  ): Promise<TransitionResult> {
    return (await this.transitionMany([{ jobId, documentId, from, to, fields, pages }]))[0]!;
  }

  /** Several transitions in one round trip; each stays atomic on its own. */
  async transitionMany(moves: TransitionMove[]): Promise<TransitionResult[]> {
    if (!moves.length) return [];
    const pipe = this.redis.pipeline();
    for (const m of moves) {
      const enc = Object.fromEntries(Object.entries(m.fields ?? {}).map(([k, v]) => [k, v === null ? null : typeof v === 'string' ? v : JSON.stringify(v)]));
      (pipe as unknown as Record<string, (...a: unknown[]) => void>).folioPcoTransition!(
        this.keys.job(m.jobId),
        this.keys.file(m.jobId, m.documentId),
        this.keys.statusSetPrefix(m.jobId),
        m.documentId,
        Array.isArray(m.from) ? m.from.join(',') : m.from,
        m.to,
        JSON.stringify(enc),
        m.pages?.completed ?? 0,
        m.pages?.failed ?? 0,
        JOB_TTL_SECONDS,
      );
    }
    const res = (await pipe.exec()) ?? [];
    return res.map(([err, r]) => {
      if (err) throw err;
      const [moved, settle, prev] = r as [number, number, string];
      return { moved: moved === 1, settleNow: settle === 1, previous: prev as FileStatus | '' };
    });
  }

  /** Claims settlement when enumeration is over and nothing is queued or in flight. */
  async claimSettle(jobId: string): Promise<boolean> {
    return (await this.redis.eval(SETTLE_CHECK_LUA, 1, this.keys.job(jobId), this.keys.statusSetPrefix(jobId))) === 1;
  }

  async getFile(jobId: string, documentId: string): Promise<FileRecord | null> {
    const h = await this.redis.hgetall(this.keys.file(jobId, documentId));
    if (!h.status) return null;
    const json = <T>(v: string | undefined, d: T): T => (v ? JSON.parse(v) : d);
    return {
      document_id: documentId,
      key: h.key!,
      sourceUri: h.source_uri!,
      status: h.status as FileStatus,
      pages: Number(h.pages ?? 0),
      pages_failed: Number(h.pages_failed ?? 0),
      attempts: Number(h.attempts ?? 0),
      generation: Number(h.generation ?? 0),
      error_id: h.error_id ?? null,
      error_message: h.error_message ?? null,
      outputs: json(h.outputs, {}),
      page_errors: json(h.page_errors, []),
      conversion_status: json(h.conversion_status, {}),
      started_at: h.started_at ?? null,
      finished_at: h.finished_at ?? null,
    };
  }

  /**
   * One page of document ids with the given statuses, in the order they reached them. The cursor
   * "<status index>:<score>" is stable while files move: scores only grow within a status set.
   */
  async listFileIds(jobId: string, statuses: readonly FileStatus[], cursor: string | null, limit: number): Promise<{ ids: string[]; next: string | null }> {
    let [si, after] = cursor ? (cursor.split(':').map(Number) as [number, number]) : [0, 0];
    const ids: string[] = [];
    while (si < statuses.length && ids.length < limit) {
      const want = limit - ids.length;
      const got = await this.redis.zrangebyscore(this.keys.statusSet(jobId, statuses[si]!), `(${after}`, '+inf', 'WITHSCORES', 'LIMIT', 0, want);
      for (let i = 0; i < got.length; i += 2) ids.push(got[i]!);
      if (got.length / 2 < want) {
        si++;
        after = 0;
      } else after = Number(got[got.length - 1]);
    }
    return { ids, next: si >= statuses.length ? null : `${si}:${after}` };
  }

  /** Job ids newest first; cursor is an offset into the index. */
  async listJobIds(offset: number, count: number): Promise<string[]> {
    return this.redis.zrevrange(this.keys.jobs, offset, offset + count - 1);
  }

  async deleteJob(jobId: string): Promise<void> {
    const m = this.redis.multi();
    for (const s of FILE_STATUSES) {
      const ids = await this.redis.zrange(this.keys.statusSet(jobId, s), 0, -1);
      for (let i = 0; i < ids.length; i += 1000) m.del(...ids.slice(i, i + 1000).map((d) => this.keys.file(jobId, d)));
      m.del(this.keys.statusSet(jobId, s));
    }
    m.del(this.keys.job(jobId)).zrem(this.keys.jobs, jobId);
    await m.exec();
  }
}
