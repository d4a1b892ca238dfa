import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job } from 'bullmq';
import { loadConfig } from '../../core/config.js';
import { createLogger } from '../../core/logging.js';
import { Queues } from '../../core/queue/index.js';
import { bullmqConnection, createRedis, waitReady } from '../../core/redis.js';
import type { Resolver } from '../../core/ssrf.js';
import { openOwnStore } from '../../core/storage/index.js';
import { ConversionStore } from '../../core/v3/conversion-store.js';
import { PdfStore } from '../../core/v3/pdf-store.js';
import { startRedis } from './redis.js';
import type { WorkerContext } from '../../worker/context.js';
import { processV3Conversion } from '../../worker/document/v3-convert.js';
import { processV3Pdf } from '../../worker/document/v3-pdf.js';
import { authRoutes } from '../../appliance/auth/routes.js';
import type { AppContext } from '../../appliance/context.js';
import { openDatabase } from '../../appliance/db.js';
import { createApp } from '../../appliance/http/app.js';
import { v3ConverterRoutes } from '../../appliance/http/v3/converter-routes.js';
import { v3PdfRoutes } from '../../appliance/http/v3/pdf-routes.js';
import { v3ResultsRoutes } from '../../appliance/http/v3/results-routes.js';
import { OcrHistory } from '../../appliance/results/ocr-history.js';

/** DNS for tests: every name resolves to one public address, so url checks pass offline. */
export const publicResolver: Resolver = async () => ['93.184.216.34'];

/**
 * Test support: the v3 surfaces in-process over a real redis-server and a temporary file store,
 * with the worker's handlers callable directly (no child processes, no inference pool).
 */
export async function v3TestApp(opts: { env?: Record<string, string>; maxUploadBytes?: number; resolve?: Resolver } = {}) {
  const server = await startRedis();
  const dir = await mkdtemp(join(tmpdir(), 'folio-v3-'));
  const config = loadConfig({ FOLIO_QUEUE_PREFIX: `t${randomBytes(4).toString('hex')}`, FOLIO_DATA_DIR: dir, ...opts.env });
  const redis = createRedis(server.url);
  await waitReady(redis);
  const queueConnection = bullmqConnection(server.url);
  const queues = new Queues(queueConnection, config.FOLIO_QUEUE_PREFIX);
  const storage = await openOwnStore(`file://${dir}/storage/`, {});
  let clock = Date.parse('2025-06-01T12:00:00Z');
  const logger = createLogger({ name: 't', level: 'silent' });
  const ctx = {
    config,
    logger,
    redis,
    queues,
    storage,
    storageSettings: {},
    db: openDatabase(':memory:'),
    metrics: undefined as never,
    textRequests: { inFlight: 0 },
    startedAt: clock,
    now: () => clock,
  } satisfies AppContext;
  const app = createApp(ctx, [
    authRoutes(ctx),
    v3PdfRoutes(ctx, { maxUploadBytes: opts.maxUploadBytes, resolve: opts.resolve ?? publicResolver }),
    v3ConverterRoutes(ctx),
    v3ResultsRoutes(ctx, new OcrHistory(ctx.db)),
  ]);
  const workerCtx: WorkerContext = { config, logger, redis, queueConnection, queues, storage, storageSettings: {}, workerId: 'test' };
  const pdfs = new PdfStore(redis, config.FOLIO_QUEUE_PREFIX, ctx.now);
  const conversions = new ConversionStore(redis, config.FOLIO_QUEUE_PREFIX, ctx.now);
  const task = (attemptsMade = 0) => ({ attemptsMade, opts: { attempts: 3 } }) as unknown as Job;

  /** One request: `json` is sent as JSON, `form` as multipart, `body` as it is. */
  const call = async (method: string, path: string, init: { headers?: Record<string, string>; json?: unknown; form?: FormData; body?: string } = {}) => {
    const headers = { ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers };
    const body = init.form ?? (init.json !== undefined ? JSON.stringify(init.json) : init.body);
    const res = await app.request(path, { method, headers, body });
    const buf = Buffer.from(await res.arrayBuffer());
    const text = buf.toString('utf8');
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // not JSON (downloads, SSE)
    }
    return { status: res.status, headers: res.headers, body: json, text, buf };
  };

  /** An app with one key, through the operator routes; `headers` are its credentials. */
  const newKey = async (name = `app-${randomBytes(3).toString('hex')}`, groupId?: string) => {
    const made = await call('POST', '/pco/v1/apps', { json: { name, ...(groupId ? { group_id: groupId } : {}) } });
    const key = await call('POST', `/pco/v1/apps/${made.body.app_id}/keys`);
    const { app_id, app_key } = key.body as { app_id: string; app_key: string };
    return { app_id, app_key, headers: { app_id, app_key } };
  };

  /** A multipart upload body: `file` (as `filename`) plus options_json when given. */
  const form = (file: Buffer, filename = 'paper.pdf', options?: unknown) => {
    const f = new FormData();
    if (options !== undefined) f.append('options_json', typeof options === 'string' ? options : JSON.stringify(options));
    f.append('file', new Blob([file], { type: 'application/pdf' }), filename);
    return f;
  };

  return {
    app,
    ctx,
    workerCtx,
    pdfs,
    conversions,
    call,
    newKey,
    form,
    advance: (ms: number) => void (clock += ms),
    /** Runs the document worker's handler for one pdf, without OCR. */
    runPdf: (pdfId: string, attemptsMade = 0) => processV3Pdf(workerCtx, pdfs, { pdfId }, task(attemptsMade), { ocr: null }),
    runConversion: (conversionId: string) => processV3Conversion(workerCtx, conversions, { conversionId }, task()),
    /** Payloads of the tasks waiting on a queue. */
    waiting: async (queue: string) =>
      (await queues.get(queue).getJobs(['waiting', 'prioritized', 'delayed'])).map((j) => ({ id: j.id, name: j.name, data: j.data })),
    async close() {
      await queues.close();
      redis.disconnect();
      queueConnection.disconnect();
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export type V3TestApp = Awaited<ReturnType<typeof v3TestApp>>;
