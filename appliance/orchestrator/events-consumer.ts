import type { Redis } from 'ioredis';
import { z } from 'zod';
import { COUNTERS } from '../../core/counters.js';
import { type FolioEvent, eventsStream } from '../../core/events.js';
import type { AppContext } from '../context.js';
import { applyUsageEvent, isDay } from '../metering/ledger.js';

export type EventHandlers = Partial<{ [T in FolioEvent['type']]: (e: Extract<FolioEvent, { type: T }>) => Promise<void> }>;

export interface EventsConsumerOptions {
  /** Handlers per event type. `usage` defaults to applyUsageEvent on ctx.db. */
  handlers: EventHandlers;
  /** @default 'orchestrator' */
  group?: string;
  /** Stable name inside the group, so a restarted appliance re-reads what it held. @default 'appliance' */
  consumer?: string;
  /** @default 5000 */
  blockMs?: number;
  /** Entries another consumer has held this long are taken over (XAUTOCLAIM). @default 60_000 */
  claimIdleMs?: number;
  /** Delay before an entry whose handler failed is tried again. @default 5000 */
  retryMs?: number;
  /** Failures before an entry is moved to the dead-letter stream. @default 10 */
  maxAttempts?: number;
}

const BATCH = 100;
const eventId = z.string().min(1);
const eventSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('usage'),
      eventId,
      day: z.string().refine(isDay, 'day must be YYYY-MM-DD'),
      deltas: z.record(z.enum(COUNTERS), z.number().int().nonnegative()),
    })
    .passthrough(),
  z.object({ type: z.literal('pco.file'), eventId, jobId: z.string(), documentId: z.string(), status: z.enum(['completed', 'failed']) }).passthrough(),
  z.object({ type: z.literal('pco.job'), eventId, jobId: z.string() }).passthrough(),
  z.object({ type: z.literal('v3.pdf'), eventId, pdfId: z.string(), status: z.enum(['completed', 'error']) }).passthrough(),
]);

type Entry = [id: string, fields: string[] | null];
type Ctx = Pick<AppContext, 'redis' | 'db' | 'config' | 'logger' | 'now'>;

/** Dead letters: events no retry can help (malformed, no handler, failing every time), kept for replay. */
export const deadLetterStream = (prefix: string) => `${eventsStream(prefix)}:dead`;

/**
 * Consumes the workers' event stream with a consumer group: an entry is acknowledged only after
 * its handler succeeded, so a crash or stop between delivery and XACK loses nothing. On start the
 * consumer re-reads its own pending entries, then takes over entries other consumers left idle.
 * Handlers must be idempotent by eventId: an entry can be delivered more than once.
 */
export class EventsConsumer {
  private conn: Redis | undefined;
  private loop: Promise<void> | undefined;
  private stopping = false;
  private readonly attempts = new Map<string, number>();
  private pendingDueAt = 0;
  private claimDueAt = 0;
  private readonly stream: string;
  private readonly group: string;
  private readonly consumer: string;

  constructor(
    private readonly ctx: Ctx,
    private readonly opts: EventsConsumerOptions,
  ) {
    this.stream = eventsStream(ctx.config.FOLIO_QUEUE_PREFIX);
    this.group = opts.group ?? 'orchestrator';
    this.consumer = opts.consumer ?? 'appliance';
  }

  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.pendingDueAt = 0;
    this.claimDueAt = 0;
    // Blocking reads get their own connection so they never hold up the shared client's commands.
    this.conn = this.ctx.redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
    this.conn.on('error', () => undefined);
    this.loop = this.run();
  }

  /** Finishes the event in hand; unacknowledged entries wait for the next start. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.conn?.disconnect(); // rejects a pending XREADGROUP BLOCK at once
    await this.loop;
    this.loop = undefined;
  }

  private async run(): Promise<void> {
    let grouped = false;
    while (!this.stopping) {
      try {
        if (!grouped) grouped = await this.ensureGroup();
        const now = Date.now();
        if (now >= this.pendingDueAt) {
          this.pendingDueAt = Infinity;
          await this.rereadOwnPending();
        }
        if (now >= this.claimDueAt) {
          this.claimDueAt = now + (this.opts.claimIdleMs ?? 60_000) / 2;
          await this.claimIdle();
        }
        await this.handleAll(await this.read('>', this.opts.blockMs ?? 5000));
      } catch (err) {
        if (this.stopping) break;
        // A Redis that came back empty has lost the group with the stream: create it again.
        if ((err as Error).message.includes('NOGROUP')) grouped = false;
        this.pendingDueAt = 0;
        this.ctx.logger.warn({ err: (err as Error).message }, 'events consumer: read failed, retrying');
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  private async ensureGroup(): Promise<true> {
    // From id 0: events emitted before the appliance ever started are consumed too.
    await this.ctx.redis.xgroup('CREATE', this.stream, this.group, '0', 'MKSTREAM').catch((err: Error) => {
      if (!err.message.includes('BUSYGROUP')) throw err;
    });
    return true;
  }

  private async read(id: string, blockMs?: number): Promise<Entry[]> {
    const args = blockMs === undefined ? [] : ['BLOCK', blockMs];
    const res = (await this.conn!.call('XREADGROUP', 'GROUP', this.group, this.consumer, 'COUNT', BATCH, ...args, 'STREAMS', this.stream, id)) as
      [string, Entry[]][] | null;
    return res?.[0]?.[1] ?? [];
  }

  /** Entries delivered to this consumer before and never acknowledged (a crash, a failed handler). */
  private async rereadOwnPending(): Promise<void> {
    for (let cursor = '0'; !this.stopping;) {
      const batch = await this.read(cursor);
      if (batch.length === 0) return;
      await this.handleAll(batch);
      cursor = batch[batch.length - 1]![0];
    }
  }

  private async claimIdle(): Promise<void> {
    for (let cursor = '0-0'; !this.stopping;) {
      const [next, entries] = (await this.conn!.call(
        'XAUTOCLAIM',
        this.stream,
        this.group,
        this.consumer,
        this.opts.claimIdleMs ?? 60_000,
        cursor,
        'COUNT',
        BATCH,
      )) as [string, Entry[]];
      await this.handleAll(entries);
      if (next === '0-0') return;
      cursor = next;
    }
  }

  private async handleAll(entries: Entry[]): Promise<void> {
    for (const [id, fields] of entries) {
      if (this.stopping) return;
      if (!fields) {
        await this.ack(id); // trimmed from the stream while pending: nothing left to apply
        continue;
      }
      const raw = fields[fields.indexOf('e') + 1] ?? '';
      let event: FolioEvent;
      try {
        event = eventSchema.parse(JSON.parse(raw)) as FolioEvent;
      } catch (err) {
        await this.deadLetter(id, raw, `malformed: ${(err as Error).message.slice(0, 200)}`);
        continue;
      }
      const handler = (event.type === 'usage' ? (this.opts.handlers.usage ?? this.applyUsage) : this.opts.handlers[event.type]) as
        ((e: FolioEvent) => Promise<void>) | undefined;
      if (!handler) {
        await this.deadLetter(id, raw, `no handler for ${event.type}`);
        continue;
      }
      try {
        await handler(event);
      } catch (err) {
        const n = (this.attempts.get(id) ?? 0) + 1;
        this.ctx.logger.warn({ event_id: event.eventId, type: event.type, attempt: n, err: (err as Error).message }, 'event handler failed');
        if (n < (this.opts.maxAttempts ?? 10)) {
          this.attempts.set(id, n);
          this.pendingDueAt = Math.min(this.pendingDueAt, Date.now() + (this.opts.retryMs ?? 5000));
        } else await this.deadLetter(id, raw, `failed ${n} times: ${(err as Error).message.slice(0, 200)}`);
        continue;
      }
      await this.ack(id);
    }
  }

  private readonly applyUsage = async (e: Extract<FolioEvent, { type: 'usage' }>): Promise<void> => {
    applyUsageEvent(this.ctx.db, e, this.ctx.now());
  };

  private async ack(id: string): Promise<void> {
    await this.ctx.redis.xack(this.stream, this.group, id);
    this.attempts.delete(id);
  }

  private async deadLetter(id: string, raw: string, reason: string): Promise<void> {
    this.ctx.logger.error({ stream_id: id, reason }, 'event moved to the dead-letter stream');
    const m = this.ctx.redis.multi();
    m.xadd(deadLetterStream(this.ctx.config.FOLIO_QUEUE_PREFIX), 'MAXLEN', '~', '100000', '*', 'id', id, 'e', raw, 'reason', reason);
    m.xack(this.stream, this.group, id);
    await m.exec();
    this.attempts.delete(id);
  }
}

/** Creates and starts the consumer; the orchestrator stops it with stop(). */
export function startEventsConsumer(ctx: Ctx, opts: EventsConsumerOptions): EventsConsumer {
  const consumer = new EventsConsumer(ctx, opts);
  consumer.start();
  return consumer;
}
