import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { pcoClient } from '../support/pco-client.js';
import { memoryMiB } from '../support/proc-memory.js';

const JOB_FILES = 200_000;
const KEY_RATE_LIMIT = 10;

/**
 * A job of 200,000 files on an appliance with no workers: acceptance only, so the numbers measure
 * the submission path (parse, plan, one SQLite transaction) and the dispatcher's bounded window.
 */
describe('Files API at the 200,000-file limit', () => {
  let app: ApplianceProcess;

  beforeAll(async () => {
    app = await spawnAppliance(
      {
        FOLIO_SPAWN_WORKERS: 'false',
        FOLIO_DOCUMENT_WORKERS: '0',
        FOLIO_INFERENCE_WORKERS: '0',
        FOLIO_ALLOW_PRIVATE_URLS: 'true',
        FOLIO_FILES_REQUESTS_PER_MINUTE_PER_KEY: String(KEY_RATE_LIMIT),
      },
      { waitHealthy: false },
    );
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('accepts and defers a 200,000-item job, replays it by Idempotency-Key, and keeps its files pending', async () => {
    const auth = await pcoClient(app.url).newKey();
    const files = Array.from({ length: JOB_FILES }, (_, i) => ({ source_uri: `http://127.0.0.1:9/bulk/paper-${i}.pdf`, filename: `paper-${i}.pdf` }));
    const body = JSON.stringify({ files });
    const headers = { ...auth, 'content-type': 'application/json', 'Idempotency-Key': `bulk-${Date.now()}` };
    const before = memoryMiB(app.proc.pid!);
    const t0 = performance.now();
    const res = await fetch(`${app.url}/files/v1/jobs`, { method: 'POST', headers, body });
    const acceptMs = Math.round(performance.now() - t0);
    const accepted = (await res.json()) as { job_id: string; file_count: number };
    expect(res.status, JSON.stringify(accepted)).toBe(200);
    expect(accepted.file_count).toBe(JOB_FILES);
    const after = memoryMiB(app.proc.pid!);

    const t1 = performance.now();
    const replay = await (await fetch(`${app.url}/files/v1/jobs`, { method: 'POST', headers, body })).json();
    const replayMs = Math.round(performance.now() - t1);
    expect(replay).toEqual(accepted);
    console.log(
      `[files-bulk] ${JOB_FILES} files (${(body.length / 1e6).toFixed(1)} MB body): accepted in ${acceptMs} ms, replayed in ${replayMs} ms; appliance RSS ${before.rss} → ${after.rss} MiB, peak ${after.peak} MiB`,
    );

    const api = (method: string, path: string, json?: unknown) =>
      fetch(`${app.url}${path}`, {
        method,
        headers: { ...auth, ...(json ? { 'content-type': 'application/json' } : {}) },
        body: json ? JSON.stringify(json) : undefined,
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    const job = await api('GET', `/files/v1/jobs/${accepted.job_id}`);
    expect(job.body).toMatchObject({
      job_id: accepted.job_id,
      status: 'processing',
      finalized: false,
      file_count: JOB_FILES,
      files_completed: 0,
      files_errored: 0,
    });
    const page = await api('GET', `/files/v1/jobs/${accepted.job_id}/files?page_size=1000`);
    expect(page.body.files).toHaveLength(1000);
    expect(page.body.next_page_token).toEqual(expect.any(String));
    expect(page.body.files[0]).toMatchObject({ filename: 'paper-0.pdf', status: 'pending', custom_id: null });
    // No worker takes it: the file stays pending, and a pending file cannot be deleted.
    expect((await api('DELETE', `/files/v1/${page.body.files[0].file_id}`)).body.error).toBe('conflict');
    const overflow = await api('POST', '/files/v1/jobs', { job_id: accepted.job_id, files: [{ source_uri: 'http://127.0.0.1:9/one-more.pdf' }] });
    // The owner may name the derived job to append to it, but not past 200,000 files.
    expect(overflow).toMatchObject({ status: 400, body: { error: 'bad_request', error_info: { field: 'files' } } });
  }, 120_000);

  it('answers http_max_requests past the per-key limit of a minute', async () => {
    const auth = await pcoClient(app.url).newKey();
    let refused: { status: number; body: any } | undefined;
    // Up to two windows' worth, in case the minute turns over midway.
    for (let i = 0; i < 2 * KEY_RATE_LIMIT + 2 && !refused; i++) {
      const r = await fetch(`${app.url}/files/v1/jobs`, { headers: auth });
      if (r.status === 429) refused = { status: r.status, body: await r.json() };
      else expect(r.status).toBe(200);
    }
    expect(refused?.body).toMatchObject({
      error: 'http_max_requests',
      error_info: { limit_name: 'requests_per_minute_per_key', limit_value: KEY_RATE_LIMIT, count: KEY_RATE_LIMIT + 1 },
    });
  });
});
