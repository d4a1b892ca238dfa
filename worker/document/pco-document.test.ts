import { randomBytes } from 'node:crypto';
import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { readCounters } from '../../core/counters.js';
import { eventsStream } from '../../core/events.js';
import { createLogger } from '../../core/logging.js';
import type { JobSpec } from '../../core/pco/job-spec.js';
import { PcoStore } from '../../core/pco/store.js';
import { createRedis, waitReady } from '../../core/redis.js';
import { parseCreateBody } from '../../appliance/http/pco/create-body.js';
import { startRedis } from '../../test/support/redis.js';
import type { WorkerContext } from '../context.js';
import { processPcoDocument } from './pco-document.js';

// A worker SIGKILLed between a document's move to completed and its usage event must not lose
// the event (the soak found one page and one document unbilled in 2,000): the re-run of the task
// finds the file completed and sends what is missing, without counting anything twice.
describe('processPcoDocument re-run after a crash at the end', () => {
  let server: Awaited<ReturnType<typeof startRedis>>;
  let ctx: WorkerContext;
  let store: PcoStore;
  const prefix = `t${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    server = await startRedis();
    const redis = createRedis(server.url);
    await waitReady(redis);
    ctx = { config: loadConfig({ FOLIO_QUEUE_PREFIX: prefix }), logger: createLogger({ name: 't', level: 'silent' }), redis } as unknown as WorkerContext;
    store = new PcoStore(redis, prefix);
  });
  afterAll(async () => {
    ctx?.redis.disconnect();
    await server?.stop();
  });

  it('sends the usage and file events of a completed file once more, counters once', async () => {
    const { spec } = parseCreateBody({ input: { folder: 'file:///tmp/in/' }, output: { folder: 'file:///tmp/in/' } });
    await store.createJob('job_1', { ...spec, callback: null } as unknown as JobSpec, Date.now());
    await store.transition('job_1', 'doc_1', '-', 'processing', { key: 'a.pdf', source_uri: 'file:///tmp/in/a.pdf', generation: 0, attempts: 1 });
    // The crashed worker got this far: the file is completed with 3 pages, nothing else was sent.
    await store.transition('job_1', 'doc_1', ['processing'], 'completed', { pages: 3, pages_failed: 0 }, { completed: 3 });
    const task = { attemptsMade: 1, opts: { attempts: 3 } } as unknown as Job;
    const payload = { jobId: 'job_1', documentId: 'doc_1', generation: 0, sourceUri: 'file:///tmp/in/a.pdf' };

    expect(await processPcoDocument(ctx, store, payload, task)).toBe('already completed');
    expect(await processPcoDocument(ctx, store, payload, task)).toBe('already completed');

    const events = (await ctx.redis.xrange(eventsStream(prefix), '-', '+')).map(([, fields]) => JSON.parse(fields[1]!));
    const usage = events.filter((e) => e.type === 'usage');
    expect(usage.map((e) => e.eventId)).toEqual(['usage:doc_1:0', 'usage:doc_1:0']); // the ledger keeps one
    expect(usage[0].deltas).toMatchObject({ pages_billable: 3, documents_billable: 1, pages_completed: 3 });
    expect(events.filter((e) => e.type === 'pco.file').map((e) => e.status)).toEqual(['completed', 'completed']);
    const counters = await readCounters(ctx.redis, prefix);
    expect(counters).toMatchObject({ pages_completed: 3, documents_completed: 1 });
  });
});
