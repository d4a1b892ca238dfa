import { ConfigError, loadConfig } from '../core/config.js';
import { Heartbeat, type WorkerRole } from '../core/heartbeat.js';
import { createLogger } from '../core/logging.js';
import { Queues } from '../core/queue/index.js';
import { bullmqConnection, createRedis, waitReady } from '../core/redis.js';
import { openOwnStore, storageSettingsFromEnv } from '../core/storage/index.js';
import type { RoleStarter, WorkerContext } from './context.js';
import { startInferenceRole } from './inference/index.js';
import { startDocumentRole } from './document/index.js';

const ROLES: Record<WorkerRole, RoleStarter> = { inference: startInferenceRole, document: startDocumentRole };

const role = process.argv[2] as WorkerRole;
if (!(role in ROLES)) {
  process.stderr.write(`usage: worker/main.ts <${Object.keys(ROLES).join('|')}>\n`);
  process.exit(2);
}
let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`folio worker: ${err.message}\n`);
    process.exit(2);
  }
  throw err;
}
if (!config.REDIS_URL) {
  process.stderr.write('folio worker: REDIS_URL is required (the appliance passes its own)\n');
  process.exit(2);
}
const workerId = process.env.FOLIO_WORKER_ID ?? `${role}-${process.pid}`;
const logger = createLogger({ name: `worker-${role}`, level: config.FOLIO_LOG_LEVEL }).child({ worker_id: workerId });
const redis = createRedis(config.REDIS_URL);
redis.on('error', () => undefined);
await waitReady(redis, 60_000);
const queueConnection = bullmqConnection(config.REDIS_URL);
queueConnection.on('error', () => undefined);
const storageSettings = storageSettingsFromEnv();
const ctx: WorkerContext = {
  config,
  logger,
  redis,
  queueConnection,
  workerId,
  storageSettings,
  queues: new Queues(queueConnection, config.FOLIO_QUEUE_PREFIX),
  storage: await openOwnStore(config.storageUri, storageSettings),
};

const workers = await ROLES[role](ctx);
const heartbeat = new Heartbeat({ redis, prefix: config.FOLIO_QUEUE_PREFIX, role, workerId, intervalMs: config.FOLIO_HEARTBEAT_MS });
await heartbeat.start();
logger.info({ role }, 'worker ready');

/** After the drain limit, how long closing the heartbeat, queues and connections may take. */
const CLOSE_GRACE_MS = 1500;
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  // Stop taking tasks, let the active ones finish within the drain limit, then leave. Closing
  // the clients may wait on a Redis that is gone: the process leaves a little later regardless.
  // A client that fails to close (a connection already gone) does not make the stop a failure:
  // the worker took no new task and drained what it had, so it still exits 0.
  setTimeout(() => process.exit(0), config.FOLIO_DRAIN_SECONDS * 1000 + CLOSE_GRACE_MS).unref();
  const closing = (what: string) => (err: unknown) => logger.warn({ err: (err as Error)?.message ?? String(err) }, `${what} did not close cleanly`);
  const drain = Promise.all(workers.map((w) => w.close().catch(closing('queue worker'))));
  const limit = new Promise((r) => setTimeout(r, config.FOLIO_DRAIN_SECONDS * 1000));
  await Promise.race([drain, limit]);
  await heartbeat.stop().catch(closing('heartbeat'));
  await ctx.queues.close().catch(closing('queues'));
  redis.disconnect();
  queueConnection.disconnect();
  process.exit(0);
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop);
// Started by the appliance's supervisor: when the appliance is gone (even SIGKILLed), so is the worker.
if (process.send) process.on('disconnect', () => void stop());
