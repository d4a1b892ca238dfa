import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { pagedPdf } from '../support/pdf-fixtures.js';
import { pcoClient, sumOfFive } from '../support/pco-client.js';
import { waitFor } from '../support/ports.js';
import { pageCounts, startPersistentRedis } from './support.js';

const FILES = 40;
const PAGES = 5;

// QUALITY.md 3: Redis restarted while a job runs. An external redis-server with an append-only
// file is SIGKILLed mid-job and started again on the same port over the same folder.
describe('redis restarted mid-job', () => {
  let redis: Awaited<ReturnType<typeof startPersistentRedis>>;
  let app: ApplianceProcess;
  let root: string;

  beforeAll(async () => {
    redis = await startPersistentRedis();
    root = await mkdtemp(join(tmpdir(), 'folio-rel-redis-'));
    await mkdir(join(root, 'in'));
    const pdf = await pagedPdf(PAGES);
    for (let i = 0; i < FILES; i++) await writeFile(join(root, 'in', `doc-${String(i).padStart(2, '0')}.pdf`), pdf);
    app = await spawnAppliance({ REDIS_URL: redis.url, FOLIO_DOCUMENT_WORKERS: '2' });
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
    await redis?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('reads degraded while redis is away, then every file completes with each page once', async () => {
    const pco = pcoClient(app.url);
    const created = await pco.create({ input: { folder: `file://${root}/in/` } });
    expect(created.status).toBe(201);
    const id = created.body.job_id;
    await waitFor(async () => (await pco.job(id)).body.files.completed >= 3, 60_000, 20);

    await redis.kill();
    const atKill = (await fetch(`${app.url}/pco/v1/status`).then((r) => r.json())) as { redis_connected: boolean };
    expect(atKill.redis_connected).toBe(false);
    const downAt = Date.now();
    // /health answers 503 degraded, each answer within 1 s, while redis is down.
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = Date.now();
      const res = await fetch(`${app.url}/health`, { signal: AbortSignal.timeout(1_000) });
      samples.push(Date.now() - t0);
      expect(res.status).toBe(503);
      const h = await res.json();
      expect(h).toMatchObject({ status: 'degraded', redis_connected: false });
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(Math.max(...samples)).toBeLessThan(1_000);

    await redis.start();
    const outage = Date.now() - downAt;
    const back = Date.now();
    await waitFor(async () => (await fetch(`${app.url}/health`)).status === 200, 30_000, 100);
    const recovered = Date.now() - back;

    const done = await pco.settled(id, 120_000);
    const settled = Date.now() - back;
    console.log(
      `[redis-restart] outage ${outage} ms, /health latency max ${Math.max(...samples)} ms, health ok after ${recovered} ms, job settled ${settled} ms after restart`,
    );
    expect(done.status).toBe('completed');
    expect(done.files).toMatchObject({ discovered: FILES, completed: FILES, failed: 0 });
    expect(sumOfFive(done.files)).toBe(FILES);
    expect(done.pages).toEqual({ completed: FILES * PAGES, failed: 0 });
    for (let i = 0; i < FILES; i++) {
      expect(await pageCounts(join(root, 'in', `doc-${String(i).padStart(2, '0')}.mmd`), PAGES)).toEqual(Array(PAGES).fill(1));
    }
    expect((await fetch(`${app.url}/health`)).status).toBe(200);
  }, 200_000);
});
