import { DelayedError, type Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { randomId } from '../../core/ids.js';
import { defineWorker } from '../../core/queue/index.js';
import type { AppContext } from '../context.js';
import { WebhookSecrets } from './secrets.js';
import { sendNotification, type SendOptions } from './send.js';

/** What the webhook component needs of the appliance context (a full AppContext fits). */
export type WebhookContext = Pick<AppContext, 'config' | 'logger' | 'db' | 'queues' | 'now'>;

/** Eight attempts in total (spec 6.2 item 5). */
export const MAX_ATTEMPTS = 8;
/** Wait after attempt n (index n-1): 58 min 15 s from the first attempt to the last. */
export const RETRY_DELAYS_MS = [15_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_500_000] as const;

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface NewDelivery {
  /** Whose secret signs it: 'pco' for the deployment, an application id for the Files API. */
  scope: 'pco' | (string & {});
  url: string;
  /** The submission's validated callback_headers. */
  headers?: Record<string, string>;
  event: string;
  payload: Record<string, unknown>;
  /** The same key is delivered once, e.g. `${event}:${file_id}` (spec 6.2 item 6). */
  dedupeKey: string;
  jobId?: string | null;
  fileId?: string | null;
}

export interface DeliveryRow {
  id: string;
  scope: string;
  dedupe_key: string;
  job_id: string | null;
  file_id: string | null;
  event: string;
  url: string;
  headers: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  last_http_status: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One delivery as GET /pco/v1/deliveries shows it. */
export interface DeliveryView {
  delivery_id: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  last_http_status: number | null;
  created_at: string;
  updated_at: string;
  url: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Records a notification and queues its delivery. A dedupeKey seen before returns the existing
 * delivery (created false) and queues nothing new unless it is still pending and its task was lost.
 */
export async function createDelivery(ctx: WebhookContext, d: NewDelivery): Promise<{ deliveryId: string; created: boolean }> {
  const now = iso(ctx.now());
  const id = randomId('whd_', 12);
  const inserted = ctx.db
    .prepare(
      `INSERT INTO webhook_deliveries (id, scope, dedupe_key, job_id, file_id, event, url, headers, payload, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING`,
    )
    .run(id, d.scope, d.dedupeKey, d.jobId ?? null, d.fileId ?? null, d.event, d.url, JSON.stringify(d.headers ?? {}), JSON.stringify(d.payload), now, now);
  const row = inserted.changes
    ? getDelivery(ctx, id)!
    : (ctx.db.prepare('SELECT * FROM webhook_deliveries WHERE dedupe_key = ?').get(d.dedupeKey) as DeliveryRow);
  if (row.status === 'pending') await enqueue(ctx, row);
  return { deliveryId: row.id, created: inserted.changes > 0 };
}

// The BullMQ job id is the delivery id: adding it again while the task exists is a no-op.
async function enqueue(ctx: WebhookContext, row: DeliveryRow): Promise<void> {
  const delay = row.next_attempt_at ? Math.max(0, Date.parse(row.next_attempt_at) - ctx.now()) : 0;
  await ctx.queues.enqueue('webhook', { deliveryId: row.id }, { jobId: row.id, delay });
}

export function getDelivery(ctx: Pick<WebhookContext, 'db'>, id: string): DeliveryRow | undefined {
  return ctx.db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?').get(id) as DeliveryRow | undefined;
}

/** Deliveries of one job, oldest first. */
export function listDeliveries(ctx: Pick<WebhookContext, 'db'>, q: { jobId: string }): DeliveryView[] {
  const rows = ctx.db.prepare('SELECT * FROM webhook_deliveries WHERE job_id = ? ORDER BY created_at, rowid').all(q.jobId) as DeliveryRow[];
  return rows.map((r) => ({
    delivery_id: r.id,
    event: r.event,
    status: r.status,
    attempts: r.attempts,
    last_http_status: r.last_http_status,
    created_at: r.created_at,
    updated_at: r.updated_at,
    url: r.url,
  }));
}

export interface DeliveryWorkerOptions extends SendOptions {
  /** A BullMQ connection (core/redis.ts bullmqConnection). */
  connection: Redis;
  /** Must equal the prefix of ctx.queues. @default ctx.config.FOLIO_QUEUE_PREFIX */
  prefix?: string;
  /** @default 8 */
  concurrency?: number;
  /** Multiplies RETRY_DELAYS_MS; tests use 0.001 to run an hour of retries in seconds. @default 1 */
  delayScale?: number;
}

export interface DeliveryWorker {
  worker: Worker;
  stop(): Promise<void>;
}

/**
 * Starts the worker that POSTs notifications: 2xx delivered, 4xx or a refused URL failed at once,
 * anything else retried on RETRY_DELAYS_MS until MAX_ATTEMPTS. The attempt count lives in SQLite,
 * and pending deliveries whose task was lost (crash between insert and enqueue) are queued again.
 */
export async function startDeliveryWorker(ctx: WebhookContext, opts: DeliveryWorkerOptions): Promise<DeliveryWorker> {
  const scale = opts.delayScale ?? 1;
  const send: SendOptions = {
    allowPrivate: opts.allowPrivate ?? ctx.config.FOLIO_ALLOW_PRIVATE_URLS,
    resolve: opts.resolve,
    ca: opts.ca,
    timeoutMs: opts.timeoutMs,
  };
  const update = ctx.db.prepare(
    `UPDATE webhook_deliveries SET status = ?, attempts = ?, last_http_status = ?, last_error = ?, next_attempt_at = ?, updated_at = ?
     WHERE id = ? AND status = 'pending'`,
  );

  const worker = defineWorker(
    'webhook',
    async ({ deliveryId }, job) => {
      const row = getDelivery(ctx, deliveryId);
      if (!row || row.status !== 'pending') return; // a duplicate task after the outcome was settled
      const secrets = new WebhookSecrets({ db: ctx.db, key: row.scope, now: ctx.now }).activeSecrets();
      const out = await sendNotification({ url: row.url, headers: JSON.parse(row.headers), payload: JSON.parse(row.payload), secrets, nowMs: ctx.now() }, send);
      const attempts = row.attempts + 1;
      const settled = out.result !== 'retry' || attempts >= MAX_ATTEMPTS;
      const status: DeliveryStatus = out.result === 'delivered' ? 'delivered' : settled ? 'failed' : 'pending';
      const delay = settled ? 0 : Math.round(RETRY_DELAYS_MS[attempts - 1]! * scale);
      const now = ctx.now();
      update.run(status, attempts, out.httpStatus, out.detail, settled ? null : iso(now + delay), iso(now), row.id);
      ctx.logger.info({ delivery_id: row.id, event: row.event, attempt: attempts, status, http_status: out.httpStatus, detail: out.detail }, 'webhook attempt');
      if (settled) return;
      // Reschedule this same task: BullMQ's own attempts stay for infrastructure errors only.
      await job.moveToDelayed(Date.now() + delay, job.token);
      throw new DelayedError();
    },
    { connection: opts.connection, prefix: opts.prefix ?? ctx.config.FOLIO_QUEUE_PREFIX, concurrency: opts.concurrency ?? 8 },
  );
  worker.on('failed', (job, err) => {
    // A task that can no longer run (bad payload, SQLite trouble past BullMQ's attempts) fails its delivery too.
    if (!job || (job.attemptsMade < (job.opts.attempts ?? 1) && err.name !== 'UnrecoverableError')) return;
    const now = iso(ctx.now());
    ctx.db
      .prepare(`UPDATE webhook_deliveries SET status = 'failed', last_error = ?, next_attempt_at = NULL, updated_at = ? WHERE id = ? AND status = 'pending'`)
      .run(err.message, now, job.data.deliveryId);
  });
  worker.on('error', (err) => ctx.logger.warn({ err: err.message }, 'webhook worker error'));

  const pending = ctx.db.prepare(`SELECT * FROM webhook_deliveries WHERE status = 'pending'`).all() as DeliveryRow[];
  for (const row of pending) await enqueue(ctx, row);

  return {
    worker,
    async stop() {
      await worker.close();
    },
  };
}
