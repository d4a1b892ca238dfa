import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../../core/storage/s3.js';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { type Fault, type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';
import { pagedPdf } from '../support/pdf-fixtures.js';
import { pcoClient, sumOfFive } from '../support/pco-client.js';
import { waitFor } from '../support/ports.js';
import { startS3rver, type TestS3 } from '../support/s3rver.js';

const FILES = 24;
const PAGES = 6;

interface HealthSample {
  at: number;
  status: number;
  storageConnected: boolean | undefined;
  redisConnected: boolean | undefined;
}

/**
 * QUALITY.md 4, throttled and hung storage: the appliance's S3 endpoint (job buckets and its own
 * result store) is a fault-injecting proxy in front of s3rver. Each scenario runs one job and,
 * once a few files are done, makes storage answer 503 SlowDown, reset connections, or hang. Every
 * file must reach a terminal state, each page must appear once in the outputs, the job's counters
 * and the usage ledger must agree, and /health must have read degraded while a timed fault lasted.
 */
describe('object storage throttled, resetting and stalling mid-job', () => {
  let s3: TestS3;
  let proxy: FaultProxy;
  let app: ApplianceProcess;
  let direct: S3Storage;

  beforeAll(async () => {
    s3 = await startS3rver();
    await s3.createBucket('papers');
    await s3.createBucket('folio');
    proxy = await startFaultProxy(s3.endpoint);
    direct = new S3Storage({ bucket: 'papers', endpoint: s3.endpoint, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });
    const pdf = await pagedPdf(PAGES);
    for (const run of ['slowdown', 'reset', 'stall', 'long']) {
      await Promise.all(Array.from({ length: FILES }, (_, i) => direct.write(`${run}/in/doc-${String(i).padStart(2, '0')}.pdf`, pdf)));
    }
    app = await spawnAppliance({
      FOLIO_DOCUMENT_WORKERS: '2',
      FOLIO_INFERENCE_WORKERS: '0',
      FOLIO_STORAGE_URI: 's3://folio/',
      FOLIO_S3_ENDPOINT: proxy.url,
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    });
  }, 90_000);
  afterAll(async () => {
    await app?.stop();
    await proxy?.stop();
    direct?.client.destroy();
    await s3?.stop();
  });

  /** Runs one job over `<run>/in/`, injecting `fault` once two files are done; returns what was seen. */
  async function jobThrough(run: string, fault: Fault, policy: Record<string, unknown> = {}) {
    const pco = pcoClient(app.url);
    const usageBefore = (await pco.call('GET', '/pco/v1/usage')).body.totals;
    const created = await pco.create({ input: { folder: `s3://papers/${run}/in/` }, output: { folder: `s3://papers/${run}/out/`, layout: 'mirror' }, policy });
    expect(created.status, created.text).toBe(201);
    const id = created.body.job_id as string;
    await waitFor(async () => (await pco.job(id)).body.files.completed >= 2, 60_000, 20);
    const before = { ...proxy.counts };
    const health: HealthSample[] = [];
    const faultAt = Date.now();
    proxy.inject(fault);
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const t0 = Date.now();
        const res = await fetch(`${app.url}/health`, { signal: AbortSignal.timeout(3_000) }).catch(() => undefined);
        const body = (await res?.json().catch(() => undefined)) as { storage_connected?: boolean; redis_connected?: boolean } | undefined;
        health.push({ at: t0 - faultAt, status: res?.status ?? 0, storageConnected: body?.storage_connected, redisConnected: body?.redis_connected });
        await new Promise((r) => setTimeout(r, 150));
      }
    })();
    const done = await pco.settled(id, 150_000);
    const settledMs = Date.now() - faultAt;
    await waitFor(async () => (await fetch(`${app.url}/health`)).status === 200, 20_000, 100);
    sampling = false;
    await sampler;
    const caught = { slowdown: proxy.counts.slowdown - before.slowdown, reset: proxy.counts.reset - before.reset, stall: proxy.counts.stall - before.stall };
    const failed = done.files.failed ? (await pco.call('GET', `/pco/v1/jobs/${id}/files?status=failed&limit=100`)).body.files : [];
    // The ledger is fed asynchronously from the workers' usage events.
    const usage = await waitFor(
      async () => {
        const t = (await pco.call('GET', '/pco/v1/usage')).body.totals;
        return t.pages_billable - usageBefore.pages_billable >= done.pages.completed && t;
      },
      20_000,
      100,
    );
    return {
      id,
      done,
      settledMs,
      health,
      caught,
      failed,
      billedPages: usage.pages_billable - usageBefore.pages_billable,
      billedDocs: usage.documents_billable - usageBefore.documents_billable,
    };
  }

  /** Occurrences of each page's body text across the job's MMD outputs: every count must be 1. */
  async function pageCountsOf(run: string): Promise<number[][]> {
    const counts: number[][] = [];
    for (let i = 0; i < FILES; i++) {
      const mmd = (await direct.readBuffer(`${run}/out/doc-${String(i).padStart(2, '0')}.mmd`)).toString('utf8');
      counts.push(Array.from({ length: PAGES }, (_, p) => mmd.split(`Body of page ${p + 1}.`).length - 1));
    }
    return counts;
  }

  const expectWholeJob = async (run: string, r: Awaited<ReturnType<typeof jobThrough>>) => {
    expect(r.failed, JSON.stringify(r.failed)).toEqual([]);
    expect(r.done.status).toBe('completed');
    expect(r.done.files).toMatchObject({ discovered: FILES, completed: FILES, failed: 0 });
    expect(sumOfFive(r.done.files)).toBe(FILES);
    expect(r.done.pages).toEqual({ completed: FILES * PAGES, failed: 0 });
    expect(r.billedPages).toBe(FILES * PAGES);
    expect(r.billedDocs).toBe(FILES);
    expect(await pageCountsOf(run)).toEqual(Array(FILES).fill(Array(PAGES).fill(1)));
  };

  const summary = (run: string, r: Awaited<ReturnType<typeof jobThrough>>) => {
    const degraded = r.health.filter((h) => h.status === 503);
    return (
      `[storage-${run}] caught ${JSON.stringify(r.caught)}; job ${r.done.status} ${r.done.files.completed}/${FILES} files, ${r.done.pages.completed} pages, ` +
      `settled ${r.settledMs} ms after the fault began; /health 503 in ${degraded.length}/${r.health.length} samples` +
      (degraded.length ? ` (from ${degraded[0]!.at} to ${degraded.at(-1)!.at} ms)` : '') +
      `; ledger ${r.billedPages} pages, ${r.billedDocs} documents`
    );
  };

  it('rides out a 6 s window of 503 SlowDown: every file completes, each page once, ledger and counters agree', async () => {
    const r = await jobThrough('slowdown', { kind: 'slowdown', windowMs: 6_000 });
    console.log(summary('slowdown', r));
    expect(r.caught.slowdown).toBeGreaterThan(0);
    const degraded = r.health.filter((h) => h.status === 503);
    expect(degraded.some((h) => h.storageConnected === false)).toBe(true);
    // Every 503 names its cause: the bucket, or (on a loaded CI machine) a Redis probe past its 400 ms deadline.
    // Nothing else may degrade /health while storage throttles.
    const unexplained = degraded.filter((h) => h.storageConnected !== false && h.redisConnected !== false);
    expect(unexplained, JSON.stringify(unexplained)).toEqual([]);
    expect(degraded.every((h) => h.at < 6_000 + 1_000)).toBe(true);
    await expectWholeJob('slowdown', r);
  }, 200_000);

  it('rides out 40 connection resets in a row', async () => {
    const r = await jobThrough('reset', { kind: 'reset', requests: 40 });
    console.log(summary('reset', r));
    expect(r.caught.reset).toBe(40);
    await expectWholeJob('reset', r);
  }, 200_000);

  it('rides out a 4 s window where storage hangs 5 s per request, then drops it', async () => {
    const r = await jobThrough('stall', { kind: 'stall', windowMs: 4_000, stallMs: 5_000 });
    console.log(summary('stall', r));
    expect(r.caught.stall).toBeGreaterThan(0);
    expect(r.health.some((h) => h.status === 503 && h.storageConnected === false)).toBe(true);
    await expectWholeJob('stall', r);
  }, 200_000);

  // Without job-level retries each file gets one attempt (the SDK's own three tries, about 2 s):
  // an outage longer than the queue takes to drain fails the rest, and the job still settles.
  it('a 25 s SlowDown outage with max_retries 0 fails files with storage_throttled while it lasts, and retry recovers them', async () => {
    const r = await jobThrough('long', { kind: 'slowdown', windowMs: 25_000 }, { max_retries: 0 });
    console.log(summary('long', r));
    expect(r.done.status).toBe('completed_with_failures');
    expect(r.failed.length).toBe(r.done.files.failed);
    expect([...new Set(r.failed.map((f: { error_id: string }) => f.error_id))]).toEqual(['storage_throttled']);
    expect(r.done.files.completed + r.done.files.failed).toBe(FILES);
    expect(r.settledMs).toBeLessThan(25_000);
    expect(r.billedDocs).toBe(r.done.files.completed);
    const pco = pcoClient(app.url);
    const retried = await pco.call('POST', `/pco/v1/jobs/${r.id}/retry`);
    expect(retried.body.requeued).toBe(r.done.files.failed);
    const done = await pco.settled(r.id, 120_000);
    console.log(`[storage-long] retry requeued ${retried.body.requeued} (all storage_throttled); the job is ${done.status} with ${done.pages.completed} pages`);
    expect(done.status).toBe('completed');
    expect(done.files).toMatchObject({ discovered: FILES, completed: FILES, failed: 0 });
    expect(done.pages).toEqual({ completed: FILES * PAGES, failed: 0 });
    expect(await pageCountsOf('long')).toEqual(Array(FILES).fill(Array(PAGES).fill(1)));
  }, 200_000);
});
