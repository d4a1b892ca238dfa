import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_MS, STALLED_CHECK_MS } from '../../core/queue/index.js';
import { RUNTIME_IMPORTS } from '../../core/runtime.js';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { pagedPdf } from '../support/pdf-fixtures.js';
import { pcoClient } from '../support/pco-client.js';
import { freePort, waitFor } from '../support/ports.js';
import { pageCounts } from './support.js';

const FILES = 6;
const PAGES = 30;
const REMOTE_WORKERS = 2;

/** Root and iproute2 make a second host: a network namespace joined to this one by a veth pair. */
function canMakeHosts(): string | undefined {
  if (process.getuid?.() !== 0) return 'not root';
  try {
    execFileSync('ip', ['-V'], { stdio: 'ignore' });
  } catch {
    return 'no `ip` (iproute2)';
  }
  return undefined;
}
const unavailable = canMakeHosts();
if (unavailable) console.warn(`[multi-host] skipped: ${unavailable}; it needs root and iproute2 to make a network namespace`);

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });

interface FileView {
  document_id: string;
  status: string;
  attempts: number;
  started_at: string | null;
}
const files = async (pco: ReturnType<typeof pcoClient>, jobId: string) =>
  (await pco.call('GET', `/pco/v1/jobs/${jobId}/files?limit=100`)).body.files as FileView[];

// "Scale out by pointing more workers at the same Redis", across hosts: two document workers on a
// second host (a network namespace with its own address, 10.77.x.2, reaching this host's
// 10.77.x.1 over a veth pair) join the appliance's Redis over TCP beside its own worker. Storage is
// the appliance's file:// store, which both "hosts" share as a mounted disk would be. Mid-job the
// second host's link is cut: its tasks lose their locks and the appliance's worker takes them over
// after LOCK_MS + STALLED_CHECK_MS; the job ends with every page once and billed once.
describe.skipIf(unavailable)('workers on another host losing their network mid-job', () => {
  const tag = `${process.pid % 10000}`;
  const ns = `folio-w${tag}`;
  const hostEnd = `fh${tag}`;
  const subnet = `10.77.${process.pid % 250}`;
  let redis: ChildProcess | undefined;
  let app: ApplianceProcess | undefined;
  const remote: ChildProcess[] = [];
  let root: string;
  let redisPort: number;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-rel-hosts-'));
    await mkdir(join(root, 'in'));
    const pdf = await pagedPdf(PAGES);
    for (let i = 0; i < FILES; i++) await writeFile(join(root, 'in', `doc-${i}.pdf`), pdf);
    ip('netns', 'add', ns);
    ip('link', 'add', hostEnd, 'type', 'veth', 'peer', 'name', `fw${tag}`);
    ip('link', 'set', `fw${tag}`, 'netns', ns);
    ip('addr', 'add', `${subnet}.1/30`, 'dev', hostEnd);
    ip('link', 'set', hostEnd, 'up');
    ip('-n', ns, 'addr', 'add', `${subnet}.2/30`, 'dev', `fw${tag}`);
    ip('-n', ns, 'link', 'set', `fw${tag}`, 'up');
    ip('-n', ns, 'link', 'set', 'lo', 'up');
    redisPort = await freePort();
    redis = spawn(
      'redis-server',
      [
        '--port',
        String(redisPort),
        '--bind',
        '127.0.0.1',
        `${subnet}.1`,
        '--protected-mode',
        'no',
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: 'ignore' },
    );
  });
  afterAll(async () => {
    for (const p of remote) p.kill('SIGKILL');
    await app?.stop();
    redis?.kill('SIGKILL');
    try {
      ip('netns', 'del', ns); // takes its end of the veth pair, and so the pair, with it
    } catch {
      // never made
    }
    await rm(root, { recursive: true, force: true });
  });

  it('the job completes on the remaining worker, each page once and billed once', async () => {
    app = await spawnAppliance({ REDIS_URL: `redis://127.0.0.1:${redisPort}`, FOLIO_DOCUMENT_WORKERS: '1', FOLIO_INFERENCE_WORKERS: '0' });
    const health = async () => (await (await fetch(`${app!.url}/health`)).json()) as { document_workers_alive: number };
    for (let i = 0; i < REMOTE_WORKERS; i++) {
      const env = {
        ...process.env,
        REDIS_URL: `redis://${subnet}.1:${redisPort}`,
        FOLIO_DATA_DIR: app.dataDir,
        FOLIO_STORAGE_URI: `file://${app.dataDir}/storage/`,
        FOLIO_WORKER_ID: `remote-${i}`,
        FOLIO_HEARTBEAT_MS: '300',
        FOLIO_LOG_LEVEL: 'warn',
      };
      remote.push(spawn('ip', ['netns', 'exec', ns, process.execPath, ...RUNTIME_IMPORTS, 'worker/main.ts', 'document'], { env, stdio: 'ignore' }));
    }
    await waitFor(async () => (await health()).document_workers_alive === 1 + REMOTE_WORKERS, 90_000, 200);

    const pco = pcoClient(app.url);
    const id = (await pco.create({ input: { folder: `file://${root}/in/` }, policy: { max_retries: 0 } })).body.job_id as string;
    // Three workers, one task each: three files processing means both remote workers hold one.
    await waitFor(async () => (await pco.job(id)).body.files.processing >= 1 + REMOTE_WORKERS, 60_000, 20);
    const cutAt = Date.now();
    ip('link', 'set', hostEnd, 'down');
    const heldAtCut = new Set((await files(pco, id)).filter((f) => f.status === 'processing').map((f) => f.document_id));
    const goneMs = await waitFor(async () => (await health()).document_workers_alive === 1 && Date.now() - cutAt, 60_000, 200);
    const done = await pco.settled(id, 240_000);
    const settledMs = Date.now() - cutAt;
    const usage = await waitFor(
      async () => {
        const totals = (await pco.call('GET', '/pco/v1/usage')).body.totals;
        return totals.pages_billable >= FILES * PAGES && totals;
      },
      20_000,
      200,
    ).catch(async () => (await pco.call('GET', '/pco/v1/usage')).body.totals);
    console.log(
      `[multi-host] link cut with ${REMOTE_WORKERS} remote tasks in flight; remote heartbeats gone after ${goneMs} ms; job ${done.status} ${settledMs} ms after the cut (lock ${LOCK_MS} ms + stall check ${STALLED_CHECK_MS} ms); files ${JSON.stringify(done.files)}; pages ${JSON.stringify(done.pages)}; billable ${usage.pages_billable}`,
    );
    expect(done.status).toBe('completed');
    expect(done.files).toMatchObject({ discovered: FILES, completed: FILES, failed: 0 });
    expect(done.pages).toEqual({ completed: FILES * PAGES, failed: 0 });
    for (let i = 0; i < FILES; i++) expect(await pageCounts(join(root, 'in', `doc-${i}.mmd`), PAGES)).toEqual(Array(PAGES).fill(1));
    expect(usage.pages_billable).toBe(FILES * PAGES);
    // Taken over: the remote workers' files were claimed a second time, and only once their locks
    // ran out (renewed every LOCK_MS / 2, so no sooner than that after the cut).
    const retaken = (await files(pco, id)).filter((f) => f.attempts > 1);
    console.log(`[multi-host] taken over ${retaken.map((f) => `${f.document_id} at +${Date.parse(f.started_at!) - cutAt} ms`).join(', ')}`);
    expect(retaken).toHaveLength(REMOTE_WORKERS);
    for (const f of retaken) {
      expect(heldAtCut.has(f.document_id)).toBe(true);
      expect(f.attempts).toBe(2);
      expect(Date.parse(f.started_at!) - cutAt).toBeGreaterThanOrEqual(LOCK_MS / 2);
    }
  }, 300_000);
});
