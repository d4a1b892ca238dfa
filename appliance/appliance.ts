import { serve, type ServerType } from '@hono/node-server';
import { join } from 'node:path';
import { type Config } from '../core/config.js';
import { createLogger, type Logger } from '../core/logging.js';
import { Queues } from '../core/queue/index.js';
import { bullmqConnection, createRedis, waitReady } from '../core/redis.js';
import { openOwnStore, storageSettingsFromEnv } from '../core/storage/index.js';
import type { AppContext } from './context.js';
import { openDatabase } from './db.js';
import { createApp } from './http/app.js';
import { readUsageReportState } from './metering/report-state.js';
import { createMetricsRegistry } from './ops/metrics.js';
import { readSnapshot } from './ops/snapshot.js';
import { RedisServerSupervisor } from './supervisor/redis-server.js';
import { WorkerSupervisor } from './supervisor/workers.js';
import { startOrchestrator } from './orchestrator/index.js';
import { PcoStore } from '../core/pco/store.js';
import { LicenseChecker, licenseCheckerConfig } from '../license/checker.js';
import { loadLicenseAtStart } from '../license/start.js';
import { UsageReporter } from './metering/reporter.js';
import { usageLicenseRoutes } from './http/ops/usage-license.js';
import { pcoWebhookRoutes } from './webhooks/routes.js';
import { authRoutes } from './auth/routes.js';
import { consoleRoutes } from './http/console-static.js';
import { v3PdfRoutes } from './http/v3/pdf-routes.js';
import { v3ConverterRoutes } from './http/v3/converter-routes.js';
import { v3TextRoutes } from './http/v3/text-routes.js';
import { v3ResultsRoutes } from './http/v3/results-routes.js';
import { v3LatexRoutes } from './http/v3/latex-routes.js';
import { InferencePool } from './http/v3/text-inference.js';
import { cdnRoutes } from './http/cdn-routes.js';
import { v3StrokesRoutes } from './http/v3/strokes-routes.js';
import { StrokesPool } from './http/v3/strokes-inference.js';
import { v3BatchRoutes } from './http/v3/batch-routes.js';
import { filesDataSourceRoutes } from './http/files/data-sources-routes.js';
import { filesWebhookConfigRoutes } from './http/files/webhook-config-routes.js';
import { OcrHistory } from './results/ocr-history.js';
import { startRetentionSweeper } from './orchestrator/retention.js';
import { filesRoutes } from './http/files/routes.js';
import { recoverAcceptances } from './files/accept.js';
import { startFilesOrchestrator } from './files/index.js';
import { v3NotificationHandlers, watchLostV3Pdfs } from './orchestrator/v3-notifications.js';
import { startDeliveryWorker } from './webhooks/deliveries.js';
import { pcoNotificationHandlers } from './orchestrator/pco-notifications.js';
import { PcoJobs } from './orchestrator/pco-jobs.js';
import { pcoJobRoutes } from './http/pco/routes.js';
import { validateJobCallback } from './http/pco/callback.js';

interface Component {
  name: string;
  stop(): Promise<void> | void;
}

export interface RunningAppliance {
  ctx: AppContext;
  port: number;
  redisServer?: RedisServerSupervisor;
  workers?: WorkerSupervisor;
  /**
   * Stops every component in reverse order of start, within FOLIO_DRAIN_SECONDS plus
   * STOP_MARGIN_MS; past that, the children still running are SIGKILLed and it rejects.
   */
  stop(): Promise<void>;
}

/** Beyond the drain limit: time for the HTTP server, the clients and Redis to close. */
export const STOP_MARGIN_MS = 4000;

/**
 * Starts every component in dependency order: private Redis → clients → ledger → storage →
 * HTTP → orchestrator → worker children. stop() takes them down in reverse.
 */
export async function startAppliance(
  envConfig: Config,
  logger: Logger = createLogger({ name: 'appliance', level: envConfig.FOLIO_LOG_LEVEL }),
): Promise<RunningAppliance> {
  // A signed licence file, when configured, is verified before anything starts and decides the
  // customer, deployment id and modes.
  const { config, license: licenseFile, overridden } = loadLicenseAtStart(envConfig);
  if (licenseFile) {
    logger.info(
      {
        customer: licenseFile.customer,
        deployment_id: licenseFile.deployment_id,
        license_mode: licenseFile.license_mode,
        metering_mode: licenseFile.metering_mode,
        expires_at: licenseFile.expires_at,
        overridden,
      },
      'licence file verified',
    );
  }
  const started: Component[] = [];
  let redisServer: RedisServerSupervisor | undefined;
  let workers: WorkerSupervisor | undefined;
  let stopping: string | undefined;
  const stopAll = async () => {
    // Before anything stops: a child exiting from here on (the same Ctrl-C reached it) has stopped.
    redisServer?.markStopping();
    workers?.markStopping();
    for (const c of started.reverse()) {
      stopping = c.name;
      const t0 = Date.now();
      try {
        await c.stop();
        if (Date.now() - t0 > 1000) logger.info({ component: c.name, ms: Date.now() - t0 }, 'stopped');
      } catch (err) {
        logger.warn({ component: c.name, err: (err as Error).message }, 'stop failed');
      }
    }
  };
  const stopWithin = async (ms: number) => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), ms)));
    const outcome = await Promise.race([stopAll(), deadline]);
    clearTimeout(timer);
    if (outcome !== 'late') return;
    workers?.kill();
    redisServer?.kill();
    throw new Error(`stop took longer than ${ms} ms (still stopping ${stopping}); children killed`);
  };
  try {
    let redisUrl = config.REDIS_URL;
    if (!redisUrl) {
      redisServer = new RedisServerSupervisor({ dataDir: config.dataDir, bin: config.FOLIO_REDIS_SERVER_BIN, logger });
      await redisServer.start();
      started.push({ name: 'redis-server', stop: () => redisServer!.stop() });
      redisUrl = redisServer.url;
    }
    const redis = createRedis(redisUrl);
    redis.on('error', () => undefined); // reconnects on its own; /health reports the outage
    await waitReady(redis);
    started.push({ name: 'redis', stop: () => void redis.disconnect() });
    const queueConn = bullmqConnection(redisUrl);
    queueConn.on('error', () => undefined);
    started.push({ name: 'queue-connection', stop: () => void queueConn.disconnect() });
    const queues = new Queues(queueConn, config.FOLIO_QUEUE_PREFIX);
    started.push({ name: 'queues', stop: () => queues.close() });

    const db = openDatabase(join(config.dataDir, 'folio.sqlite'));
    started.push({ name: 'sqlite', stop: () => void db.close() });
    // Before the HTTP routes: a Files API batch a crash cut short is undone or released (accept.ts).
    const recovered = recoverAcceptances(db);
    if (recovered.undone || recovered.released) logger.warn(recovered, 'files batches interrupted by a stop were finished');

    const storageSettings = storageSettingsFromEnv();
    const storage = await openOwnStore(config.storageUri, storageSettings);

    const ctx: AppContext = {
      config,
      logger,
      redis,
      queues,
      storage,
      storageSettings,
      db,
      metrics: undefined as never,
      textRequests: { inFlight: 0 },
      startedAt: Date.now(),
      now: () => Date.now(),
    };
    ctx.metrics = createMetricsRegistry({
      snapshot: () => readSnapshot(ctx),
      redis,
      prefix: config.FOLIO_QUEUE_PREFIX,
      gpuExpected: config.gpuWorkersExpected,
      documentExpected: config.documentWorkersExpected,
      textInFlight: () => ctx.textRequests.inFlight,
      usage: async () => {
        const s = readUsageReportState(ctx);
        return { reportAgeSeconds: s.last_report_at ? (Date.now() - Date.parse(s.last_report_at)) / 1000 : -1, daysPending: s.days_pending };
      },
    });

    const pcoStore = new PcoStore(redis, config.FOLIO_QUEUE_PREFIX);
    const pcoJobs = new PcoJobs(ctx, pcoStore, validateJobCallback(ctx));
    // One inference pool (one QueueEvents connection) for every synchronous and batch image route.
    const inference = new InferencePool(ctx);
    started.push({ name: 'inference-pool', stop: () => inference.close() });
    const strokesPool = new StrokesPool(ctx);
    started.push({ name: 'strokes-pool', stop: () => strokesPool.close() });
    const v3Batch = v3BatchRoutes(ctx, { recognize: inference.recognize });
    const app = createApp(ctx, [
      pcoJobRoutes(ctx, pcoJobs),
      pcoWebhookRoutes(ctx),
      usageLicenseRoutes(ctx),
      authRoutes(ctx),
      filesDataSourceRoutes(ctx),
      filesWebhookConfigRoutes(ctx),
      v3PdfRoutes(ctx),
      cdnRoutes(ctx),
      v3ConverterRoutes(ctx),
      v3TextRoutes(ctx, { recognize: inference.recognize }),
      v3StrokesRoutes(ctx, { recognize: strokesPool.recognize }),
      v3LatexRoutes(ctx, { recognize: inference.recognize }),
      v3Batch.routes,
      v3ResultsRoutes(ctx, new OcrHistory(ctx.db)),
      filesRoutes(ctx),
      consoleRoutes(),
    ]);
    const server: ServerType = await new Promise((resolve) => {
      const s = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, () => resolve(s));
    });
    const port = (server.address() as { port: number }).port;
    started.push({ name: 'http', stop: () => new Promise<void>((r) => server.close(() => r())) });
    await v3Batch.start();
    started.push({ name: 'v3-batch', stop: () => v3Batch.stop() });

    const license = new LicenseChecker({
      redis,
      ...licenseCheckerConfig(config),
      logger,
    });
    await license.start();
    started.push({ name: 'license', stop: () => license.stop() });
    const reporter = new UsageReporter({
      db,
      mode: config.FOLIO_METERING_MODE,
      url: config.FOLIO_METERING_URL,
      deploymentId: config.FOLIO_DEPLOYMENT_ID,
      customer: config.FOLIO_CUSTOMER,
      buildId: config.FOLIO_BUILD_ID,
      licenseKey: config.FOLIO_LICENSE_KEY,
      logger,
    });
    reporter.start();
    started.push({ name: 'usage-reporter', stop: () => reporter.stop() });

    const deliveries = await startDeliveryWorker(ctx, { connection: queueConn });
    started.push({ name: 'webhook-deliveries', stop: () => deliveries.stop() });
    const files = startFilesOrchestrator(ctx);
    started.push({ name: 'files', stop: () => files.stop() });
    const orchestrator = await startOrchestrator(ctx, redisUrl, {
      pcoStore,
      handlers: { ...pcoNotificationHandlers(ctx, pcoStore), ...files.withDocumentEnd(v3NotificationHandlers(ctx)) },
      extra: [watchLostV3Pdfs(ctx, redisUrl), startRetentionSweeper(ctx)],
    });
    started.push({ name: 'orchestrator', stop: () => orchestrator.stop() });

    if (config.FOLIO_SPAWN_WORKERS) {
      workers = new WorkerSupervisor({
        inference: config.FOLIO_INFERENCE_WORKERS,
        document: config.FOLIO_DOCUMENT_WORKERS,
        env: { ...process.env, REDIS_URL: redisUrl, FOLIO_DATA_DIR: config.dataDir, FOLIO_STORAGE_URI: config.storageUri },
        logger,
        drainMs: config.FOLIO_DRAIN_SECONDS * 1000,
      });
      workers.start();
      started.push({ name: 'workers', stop: () => workers!.stop() });
    }
    logger.info({ port, redis: redisServer ? 'private' : 'external', storage: storage.rootUri }, 'appliance ready');
    return { ctx, port, redisServer, workers, stop: () => stopWithin(config.FOLIO_DRAIN_SECONDS * 1000 + STOP_MARGIN_MS) };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
