import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../appliance/context.js';
import { openDatabase } from '../../appliance/db.js';
import { readUsage } from '../../appliance/metering/ledger.js';
import { type EventsConsumer, type EventsConsumerOptions, deadLetterStream, startEventsConsumer } from '../../appliance/orchestrator/events-consumer.js';
import { loadConfig } from '../../core/config.js';
import { type FolioEvent, emitEvent, eventsStream } from '../../core/events.js';
import { createLogger } from '../../core/logging.js';
import { createRedis } from '../../core/redis.js';
import { waitFor } from '../support/ports.js';
import { type TestRedis, startRedis } from '../support/redis.js';

// Workers emit usage events into the Redis stream; the appliance's consumer applies them to the
// SQLite ledger. Every test has its own key prefix and ledger.
describe('usage events → ledger', () => {
  let server: TestRedis;
  let redis: Redis;
  const running: EventsConsumer[] = [];

  beforeAll(async () => {
    server = await startRedis();
    redis = createRedis(server.url);
    await new Promise((r) => redis.once('ready', r));
  });
  afterEach(async () => {
    for (const c of running.splice(0)) await c.stop();
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });

  function setup() {
    const prefix = `t${randomUUID().slice(0, 8)}`;
    const ctx = {
      config: loadConfig({ FOLIO_QUEUE_PREFIX: prefix }),
      logger: createLogger({ name: 't', level: 'silent' }),
      redis,
      db: openDatabase(':memory:'),
      now: () => Date.now(),
    } as AppContext;
    const start = (opts: Partial<EventsConsumerOptions> = {}) => {
      const c = startEventsConsumer(ctx, { handlers: {}, blockMs: 200, ...opts });
      running.push(c);
      return c;
    };
    const stop = async (c: EventsConsumer) => {
      await c.stop();
      running.splice(running.indexOf(c), 1);
    };
    const emit = (e: FolioEvent) => emitEvent(redis, prefix, e);
    const pages = () => readUsage(ctx.db, '2025-03-01', '2025-03-02').totals.pages_billable;
    const pending = async () => ((await redis.xpending(eventsStream(prefix), 'orchestrator')) as [number])[0];
    const usage = (eventId: string, n: number, day = '2025-03-01'): FolioEvent => ({
      type: 'usage',
      eventId,
      day,
      deltas: { pages_billable: n, pages_completed: n },
    });
    return { ctx, prefix, start, stop, emit, pages, pending, usage };
  }

  it('applies each event once even when the same event is emitted twice', async () => {
    const { start, emit, pages, pending, usage, ctx } = setup();
    start();
    await emit(usage('doc-1', 3));
    await emit(usage('doc-1', 3));
    await emit(usage('doc-2', 4, '2025-03-02'));
    await waitFor(async () => (await pending()) === 0 && pages() === 7);
    await new Promise((r) => setTimeout(r, 300));
    expect(pages()).toBe(7);
    expect(readUsage(ctx.db, '2025-03-01', '2025-03-02').days.map((d) => d.pages_completed)).toEqual([3, 4]);
  });

  it('consumes events emitted before the consumer ever started', async () => {
    const { start, emit, pages, usage } = setup();
    await emit(usage('early', 5));
    start();
    await waitFor(() => pages() === 5);
  });

  it('loses nothing and counts nothing twice when stopped between applying and acknowledging', async () => {
    const { ctx, start, stop, emit, pages, pending, usage } = setup();
    const { applyUsageEvent } = await import('../../appliance/metering/ledger.js');
    let applied = 0;
    // The ledger write commits, then the process "dies" before XACK.
    const crashing = start({
      retryMs: 60_000,
      handlers: {
        usage: async (e) => {
          applyUsageEvent(ctx.db, e);
          applied++;
          throw new Error('crash before ack');
        },
      },
    });
    await emit(usage('doc-1', 6));
    await waitFor(() => applied === 1);
    await stop(crashing);
    expect(pages()).toBe(6);
    expect(await pending()).toBe(1);

    await emit(usage('doc-2', 1)); // emitted while no consumer runs
    start();
    await waitFor(async () => (await pending()) === 0 && pages() === 7);
    await new Promise((r) => setTimeout(r, 300));
    expect(pages()).toBe(7);
  });

  it('re-reads what it held when stopped after delivery but before handling', async () => {
    const { prefix, start, pages, pending, emit, usage } = setup();
    start();
    await waitFor(async () => (await redis.xinfo('GROUPS', eventsStream(prefix))) as unknown[]);
    const c = running.pop()!;
    await c.stop();
    await emit(usage('doc-1', 2));
    // Delivered to this consumer name, then the process vanished.
    await redis.xreadgroup('GROUP', 'orchestrator', 'appliance', 'COUNT', 10, 'STREAMS', eventsStream(prefix), '>');
    expect(await pending()).toBe(1);
    start();
    await waitFor(async () => (await pending()) === 0 && pages() === 2);
  });

  it('creates its group again when Redis comes back without the stream', async () => {
    const { prefix, start, pages, emit, usage } = setup();
    start();
    await emit(usage('doc-1', 1));
    await waitFor(() => pages() === 1);
    await redis.del(eventsStream(prefix));
    await emit(usage('doc-2', 2));
    await waitFor(() => pages() === 3, 10_000);
  });

  it('takes over entries another consumer left idle', async () => {
    const { prefix, start, pages, pending, emit, usage } = setup();
    await redis.xgroup('CREATE', eventsStream(prefix), 'orchestrator', '0', 'MKSTREAM');
    await emit(usage('doc-1', 9));
    await redis.xreadgroup('GROUP', 'orchestrator', 'old-host', 'COUNT', 10, 'STREAMS', eventsStream(prefix), '>');
    start({ claimIdleMs: 100 });
    await waitFor(async () => (await pending()) === 0 && pages() === 9);
  });

  it('moves malformed and unhandled events to the dead-letter stream without holding up the rest', async () => {
    const { prefix, start, emit, pages, pending, usage } = setup();
    const seen: string[] = [];
    start({ handlers: { 'pco.job': async (e) => void seen.push(e.jobId) } });
    await redis.xadd(eventsStream(prefix), '*', 'e', '{not json');
    await emit({ type: 'usage', eventId: 'neg', day: '2025-03-01', deltas: { pages_billable: -4 } });
    await emit({ type: 'pco.file', eventId: 'f1', jobId: 'j1', documentId: 'd1', status: 'completed' });
    await emit({ type: 'pco.job', eventId: 'j1', jobId: 'j1' });
    await emit(usage('doc-1', 2));
    await waitFor(async () => (await pending()) === 0 && pages() === 2 && seen.length === 1);
    const dead = await redis.xrange(deadLetterStream(prefix), '-', '+');
    expect(dead.map(([, f]) => f[f.indexOf('reason') + 1]!.split(':')[0])).toEqual(['malformed', 'malformed', 'no handler for pco.file']);
  });
});
