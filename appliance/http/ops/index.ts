import { Hono } from 'hono';
import type { AppContext } from '../../context.js';
import { isHealthy, readSnapshot } from '../../ops/snapshot.js';
import { API_VERSION, OCR_VERSION, PDF_VERSION } from '../../../core/versions.js';
import { readUsageReportState } from '../../metering/report-state.js';
import { THROUGHPUT_HISTORY_MINUTES, readPagesByMinute } from '../../../core/counters.js';
import { ApiError } from '../../../core/errors.js';

/** GET /health, GET /metrics and GET /pco/v1/status (spec 4.14, 3.10). No credentials. */
export function opsRoutes(ctx: AppContext): Hono {
  const app = new Hono();
  const { config } = ctx;
  const snapshot = () => readSnapshot(ctx);

  app.get('/health', async (c) => {
    const s = await snapshot();
    const ok = isHealthy(s, config.gpuWorkersExpected);
    return c.json(
      {
        status: ok ? 'ok' : 'degraded',
        redis_connected: s.redisConnected,
        storage_connected: s.storageConnected,
        gpu_workers_alive: s.gpuWorkersAlive,
        gpu_workers_expected: config.gpuWorkersExpected,
        document_workers_alive: s.documentWorkersAlive,
        document_workers_expected: config.documentWorkersExpected,
        text_requests_in_flight: ctx.textRequests.inFlight,
        text_requests_max: config.FOLIO_TEXT_REQUESTS_MAX,
        license: { status: s.license.status, last_verified_at: s.license.last_verified_at },
      },
      ok ? 200 : 503,
    );
  });

  app.get('/metrics', async (c) => {
    const body = await ctx.metrics.metrics();
    return c.body(body, 200, { 'content-type': ctx.metrics.contentType });
  });

  // Folio extension: pages completed per minute, for throughput charts that need a history.
  app.get('/pco/v1/throughput', async (c) => {
    const minutes = Number(c.req.query('minutes') ?? 60);
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > THROUGHPUT_HISTORY_MINUTES) {
      throw new ApiError('bad_request', `minutes must be an integer from 1 to ${THROUGHPUT_HISTORY_MINUTES}`);
    }
    const rows = await readPagesByMinute(ctx.redis, config.FOLIO_QUEUE_PREFIX, minutes, ctx.now());
    const total = rows.reduce((n, r) => n + r.pages, 0);
    return c.json({
      minutes: rows.map((r) => ({ minute: new Date(r.minute).toISOString(), pages_completed: r.pages })),
      pages_per_minute_avg: Math.round((total / minutes) * 100) / 100,
    });
  });

  app.get('/pco/v1/status', async (c) => {
    const s = await snapshot();
    const usage = readUsageReportState(ctx);
    const q = s.queueDepths;
    return c.json({
      ocr_version: OCR_VERSION,
      pdf_version: PDF_VERSION,
      api_version: API_VERSION,
      build_id: config.FOLIO_BUILD_ID,
      customer: config.FOLIO_CUSTOMER,
      license_mode: config.FOLIO_LICENSE_MODE,
      metering_mode: config.FOLIO_METERING_MODE,
      deployment_id: config.FOLIO_DEPLOYMENT_ID,
      uptime_seconds: Math.floor((ctx.now() - ctx.startedAt) / 1000),
      // The spec's three, then Folio's other queues (the hosted-style API's documents and
      // conversions, /v3/strokes reads, dry runs' page counts, webhook deliveries), so one call shows every backlog.
      queue_depths: {
        documents: q.documents ?? 0,
        pages: q.pages ?? 0,
        jobs: q.jobs ?? 0,
        v3_documents: q['v3-documents'] ?? 0,
        v3_conversions: q['v3-conversions'] ?? 0,
        strokes: q.strokes ?? 0,
        page_counts: q['page-counts'] ?? 0,
        webhooks: q.webhooks ?? 0,
      },
      workers: {
        gpu_alive: s.gpuWorkersAlive,
        gpu_expected: config.gpuWorkersExpected,
        document_alive: s.documentWorkersAlive,
        document_expected: config.documentWorkersExpected,
        batch_job_expected: config.documentWorkersExpected,
      },
      text_requests: { in_flight: ctx.textRequests.inFlight, max: config.FOLIO_TEXT_REQUESTS_MAX },
      redis_connected: s.redisConnected,
      storage_connected: s.storageConnected,
      license: { status: s.license.status, last_verified_at: s.license.last_verified_at },
      metering: {
        mode: config.FOLIO_METERING_MODE,
        last_report_at: usage.last_report_at,
        last_attempt_at: usage.last_attempt_at,
        last_report_error: usage.last_report_error,
        days_pending: usage.days_pending,
      },
    });
  });
  return app;
}
