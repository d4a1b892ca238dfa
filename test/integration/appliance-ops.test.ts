import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIME_ENV } from '../../core/runtime.js';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { waitFor } from '../support/ports.js';

// The appliance as `make run` starts it: private redis-server, SQLite, local storage and
// supervised worker children, all real processes.
describe('appliance on its embedded defaults', () => {
  let app: ApplianceProcess;
  const health = async () => {
    const res = await fetch(`${app.url}/health`);
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  beforeAll(async () => {
    app = await spawnAppliance({ FOLIO_INFERENCE_WORKERS: '1', FOLIO_DOCUMENT_WORKERS: '1' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('answers /health 200 ok with every field of 4.14', async () => {
    const { status, body } = await health();
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'ok',
      redis_connected: true,
      storage_connected: true,
      gpu_workers_alive: 1,
      gpu_workers_expected: 1,
      document_workers_alive: 1,
      document_workers_expected: 1,
      text_requests_in_flight: 0,
      license: { status: 'not_enforced', last_verified_at: null },
    });
    expect(typeof body.text_requests_max).toBe('number');
  });

  it('reports /pco/v1/status with versions, workers, queues and metering', async () => {
    const res = await fetch(`${app.url}/pco/v1/status`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, any>;
    expect(body.api_version).toBe(1);
    expect(typeof body.ocr_version).toBe('string');
    expect(body.workers).toMatchObject({ gpu_alive: 1, gpu_expected: 1, document_alive: 1, document_expected: 1 });
    expect(body.queue_depths).toEqual({ documents: 0, pages: 0, jobs: 0, v3_documents: 0, v3_conversions: 0, strokes: 0, page_counts: 0, webhooks: 0 });
    expect(body.metering).toMatchObject({ mode: 'offline', days_pending: 0 });
    expect(body.uptime_seconds).toBeGreaterThanOrEqual(0);
  });

  it('serves /metrics that promtool accepts, with every named metric', async () => {
    const res = await fetch(`${app.url}/metrics`);
    const text = await res.text();
    for (const name of [
      'pco_gpu_workers_alive',
      'pco_gpu_workers_expected',
      'pco_document_workers_alive',
      'pco_document_workers_expected',
      'pco_queue_depth{queue="documents"}',
      'pco_redis_connected 1',
      'pco_storage_connected 1',
      'pco_license_status{status="not_enforced"} 1',
      'pco_license_seconds_since_verified',
      'pco_usage_report_age_seconds',
      'pco_usage_days_pending',
      'pco_pages_completed_total',
      'pco_pages_failed_total',
      'pco_documents_completed_total',
      'pco_documents_failed_total',
      'pco_images_completed_total',
      'pco_images_failed_total',
      'pco_pages_billable_total',
      'pco_page_seconds_bucket{le="15"}',
      'pco_page_seconds_count',
    ]) {
      expect(text, name).toContain(name);
    }
    const file = join(app.dataDir, 'metrics.txt');
    writeFileSync(file, text);
    // promtool exits 1 on a malformed exposition and 3 on lint findings. The one finding allowed is
    // the unit of pco_usage_days_pending, a name the spec fixes.
    const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(check.status === 0 || check.status === 3, check.stderr).toBe(true);
    const findings = `${check.stdout}${check.stderr}`.split('\n').filter((l) => l.trim() && !l.startsWith('pco_usage_days_pending '));
    expect(findings).toEqual([]);
  });

  it('starts its workers with the runtime environment (malloc arenas) unless the operator set it', () => {
    const environ = (pid: number) =>
      new Map(
        readFileSync(`/proc/${pid}/environ`, 'utf8')
          .split('\0')
          .map((kv) => [kv.split('=')[0], kv.slice(kv.indexOf('=') + 1)]),
      );
    const workers = app.childPids(/worker\/main\.ts/);
    expect(workers).toHaveLength(2);
    for (const pid of workers) for (const [k, v] of Object.entries(RUNTIME_ENV)) expect(environ(pid).get(k), k).toBe(process.env[k] ?? v);
  });

  it('restarts a killed worker and its heartbeat returns', async () => {
    const [pid] = app.childPids(/worker\/main\.ts inference/);
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    await waitFor(async () => (await health()).body.gpu_workers_alive === 0, 10_000);
    await waitFor(async () => {
      const [again] = app.childPids(/worker\/main\.ts inference/);
      return again && again !== pid && (await health()).body.gpu_workers_alive === 1;
    }, 20_000);
  });

  it('reads degraded within a second while its redis-server is down, then recovers', async () => {
    const [pid] = app.childPids(/redis-server/);
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    // The supervisor waits half a second before restarting redis: the outage is observable.
    const down = await waitFor(
      async () => {
        const started = Date.now();
        const h = await health();
        return h.status === 503 && { ...h, ms: Date.now() - started };
      },
      2000,
      20,
    );
    expect(down.ms).toBeLessThan(1000);
    expect(down.body).toMatchObject({
      status: 'degraded',
      redis_connected: false,
      gpu_workers_alive: 0,
      document_workers_alive: 0,
      license: { status: 'unknown' },
    });
    await waitFor(async () => {
      const [again] = app.childPids(/redis-server/);
      return again && again !== pid;
    }, 10_000);
    await waitFor(async () => (await health()).status === 200, 20_000);
  });
});

describe('appliance start-up and stop', () => {
  it('refuses a bad configuration value, naming the variable', async () => {
    await expect(spawnAppliance({ FOLIO_TEXT_REQUESTS_MAX: 'lots' })).rejects.toThrow(/FOLIO_TEXT_REQUESTS_MAX/);
  });

  it('stops everything on SIGTERM and exits 0', async () => {
    const app = await spawnAppliance({ FOLIO_INFERENCE_WORKERS: '1', FOLIO_DOCUMENT_WORKERS: '1' });
    const children = app.childPids(/redis-server|worker\/main\.ts/);
    expect(children.length).toBe(3);
    expect(await app.stop('SIGTERM')).toBe(0);
    for (const pid of children) expect(() => process.kill(pid, 0)).toThrow();
  });
});
