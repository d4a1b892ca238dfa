import { type ChildProcess, spawn } from 'node:child_process';
import { authRoutes } from '../../appliance/auth/routes.js';
import { createApp } from '../../appliance/http/app.js';
import { v3BatchRoutes } from '../../appliance/http/v3/batch-routes.js';
import { v3LatexRoutes } from '../../appliance/http/v3/latex-routes.js';
import type { InferencePool } from '../../appliance/http/v3/text-inference.js';
import { v3TextRoutes } from '../../appliance/http/v3/text-routes.js';
import { v3TestApp } from '../support/v3-test-app.js';

export { renderLatex } from '../support/render-latex.js';

/**
 * The maths surfaces (/v3/text, /v3/latex, /v3/batch) in-process over a real redis-server and file
 * store, with a real inference worker as a child process (worker/main.ts inference) reading the
 * same queue and store: recognition is the shipped models', the HTTP side needs no appliance wiring.
 */
export async function startMathStack() {
  const t = await v3TestApp({ env: { FOLIO_ALLOW_PRIVATE_URLS: 'true', FOLIO_TEXT_REQUESTS_MAX: '4' } });
  const pools: InferencePool[] = [];
  const batch = v3BatchRoutes(t.ctx);
  const app = createApp(t.ctx, [
    authRoutes(t.ctx),
    v3TextRoutes(t.ctx, { onPool: (p) => pools.push(p) }),
    v3LatexRoutes(t.ctx, { onPool: (p) => pools.push(p) }),
    batch.routes,
  ]);
  const { host, port } = t.ctx.redis.options as { host: string; port: number };
  const dir = t.ctx.config.dataDir;
  let log = '';
  const worker: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts', 'inference'], {
    env: {
      ...process.env,
      REDIS_URL: `redis://${host}:${port}`,
      FOLIO_QUEUE_PREFIX: t.ctx.config.FOLIO_QUEUE_PREFIX,
      FOLIO_DATA_DIR: dir,
      FOLIO_STORAGE_URI: `file://${dir}/storage/`,
      FOLIO_LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  worker.stdout!.on('data', (d) => (log += d));
  worker.stderr!.on('data', (d) => (log += d));
  const key = await t.newKey();
  const call = async (method: string, path: string, json?: unknown, headers: Record<string, string> = key.headers) => {
    const res = await app.request(path, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  return {
    t,
    call,
    key,
    batch,
    workerLog: () => log,
    async stop() {
      worker.kill('SIGTERM');
      await new Promise((r) => (worker.exitCode !== null ? r(null) : worker.once('exit', r)));
      await batch.stop();
      await Promise.all(pools.map((p) => p.close()));
      await t.close();
    },
  };
}

export const dataUrl = (b: Buffer) => `data:image/png;base64,${b.toString('base64')}`;

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
