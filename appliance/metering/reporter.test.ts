import { describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../db.js';
import { applyUsageEvent } from './ledger.js';
import { readUsageReportState } from './report-state.js';
import { UsageReporter, type UsageReporterOptions } from './reporter.js';

const T0 = Date.parse('2025-03-02T12:00:00Z');

function setup(over: Partial<UsageReporterOptions> = {}, answer: () => Response | Promise<Response> = () => new Response(null, { status: 204 })) {
  const db = openDatabase(':memory:');
  const fetch = vi.fn(async (_u: string | URL | Request, _i?: RequestInit) => answer());
  let now = T0;
  const reporter = new UsageReporter({
    db,
    mode: 'metered',
    url: 'https://metering.example/',
    deploymentId: 'dep-1',
    customer: 'Acme',
    buildId: 'b42',
    licenseKey: 'lk',
    fetch: fetch as typeof globalThis.fetch,
    now: () => now,
    ...over,
  });
  const add = (id: string, day: string, n: number) =>
    applyUsageEvent(db, { type: 'usage', eventId: id, day, deltas: { pages_billable: n, pages_completed: n } });
  return { db, fetch, reporter, add, advance: (ms: number) => (now += ms) };
}

describe('UsageReporter', () => {
  it('sends the pending day rows with their cumulative totals and marks them reported', async () => {
    const { db, fetch, reporter, add } = setup();
    add('a', '2025-03-01', 5);
    add('b', '2025-03-02', 2);
    expect(await reporter.reportOnce()).toEqual({ sent: true, days: 2, error: null });
    const [url, init] = fetch.mock.calls[0]!;
    expect(String(url)).toBe('https://metering.example/v1/usage');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer lk');
    const body = JSON.parse(String(init?.body));
    expect(body).toMatchObject({ statement_version: 1, deployment_id: 'dep-1', customer: 'Acme', build_id: 'b42', sent_at: '2025-03-02T12:00:00.000Z' });
    expect(body.days.map((d: { day: string; pages_billable: number }) => [d.day, d.pages_billable])).toEqual([
      ['2025-03-01', 5],
      ['2025-03-02', 2],
    ]);
    expect(readUsageReportState({ db })).toEqual({
      last_report_at: '2025-03-02T12:00:00.000Z',
      last_attempt_at: '2025-03-02T12:00:00.000Z',
      last_report_error: null,
      days_pending: 0,
    });
  });

  it('re-sends a day that gained usage after it was reported, with the new total', async () => {
    const { fetch, reporter, add } = setup();
    add('a', '2025-03-02', 5);
    await reporter.reportOnce();
    add('b', '2025-03-02', 1);
    await reporter.reportOnce();
    expect(JSON.parse(String(fetch.mock.calls[1]![1]?.body)).days).toMatchObject([{ day: '2025-03-02', pages_billable: 6 }]);
  });

  it('keeps a row pending when it changed while the report was in flight', async () => {
    let addLate = () => {};
    const { db, reporter, add } = setup({}, () => {
      addLate();
      return new Response(null, { status: 200 });
    });
    add('a', '2025-03-02', 5);
    addLate = () => void add('late', '2025-03-02', 1);
    await reporter.reportOnce();
    expect(readUsageReportState({ db }).days_pending).toBe(1);
  });

  it('records the failure and keeps the days pending when the server refuses or is away', async () => {
    let answer: () => Response = () => new Response('no', { status: 500 });
    const { db, reporter, add, advance } = setup({}, () => answer());
    add('a', '2025-03-01', 5);
    expect((await reporter.reportOnce()).error).toBe('rejected:http_500');
    answer = () => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } });
    };
    advance(60_000);
    await reporter.reportOnce();
    expect(readUsageReportState({ db })).toEqual({
      last_report_at: null,
      last_attempt_at: '2025-03-02T12:01:00.000Z',
      last_report_error: 'unreachable:ENOTFOUND',
      days_pending: 1,
    });
    answer = () => new Response(null, { status: 200 });
    await reporter.reportOnce();
    expect(readUsageReportState({ db })).toMatchObject({ last_report_error: null, days_pending: 0 });
  });

  it('sends nothing at all in offline mode', async () => {
    const { fetch, reporter, add, db } = setup({ mode: 'offline', intervalMs: 1 });
    add('a', '2025-03-01', 5);
    reporter.start();
    expect(await reporter.reportOnce()).toEqual({ sent: false, days: 0, error: null });
    await new Promise((r) => setTimeout(r, 20));
    await reporter.stop();
    expect(fetch).not.toHaveBeenCalled();
    expect(readUsageReportState({ db })).toMatchObject({ last_attempt_at: null, days_pending: 1 });
  });

  it('reports at start and then every interval until stopped', async () => {
    const { fetch, reporter } = setup({ intervalMs: 20 });
    reporter.start();
    await vi.waitFor(() => expect(fetch.mock.calls.length).toBeGreaterThanOrEqual(3));
    await reporter.stop();
    const n = fetch.mock.calls.length;
    await new Promise((r) => setTimeout(r, 60));
    expect(fetch.mock.calls.length).toBe(n);
  });
});
