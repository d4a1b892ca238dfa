import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { authRoutes } from '../../appliance/auth/routes.js';
import { createApp } from '../../appliance/http/app.js';
import { v3BatchRoutes } from '../../appliance/http/v3/batch-routes.js';
import { v3LatexRoutes } from '../../appliance/http/v3/latex-routes.js';
import type { InferencePool } from '../../appliance/http/v3/text-inference.js';
import { v3TextRoutes } from '../../appliance/http/v3/text-routes.js';
import { v3TestApp } from '../support/v3-test-app.js';

const run = promisify(execFile);

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

/**
 * A LaTeX body typeset by pdflatex (Computer Modern, a renderer the symbol classifier never
 * trained on) and rasterised by pdftoppm at `dpi`, cropped to its ink with a white margin.
 */
export async function renderLatex(body: string, dpi = 150, widthIn = 6): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-math-'));
  try {
    const preamble = `\\documentclass{article}\\usepackage[paperwidth=${widthIn}in,paperheight=9in,margin=0.5in]{geometry}\\usepackage{amsmath}\\pagestyle{empty}`;
    await writeFile(join(dir, 'a.tex'), `${preamble}\\begin{document}${body}\\end{document}`);
    await run('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'a.tex'], { cwd: dir, timeout: 60_000 });
    await run('pdftoppm', ['-r', String(dpi), '-png', '-singlefile', 'a.pdf', 'page'], { cwd: dir });
    const page = await readFile(join(dir, 'page.png'));
    return await sharp(page).trim({ threshold: 10 }).extend({ top: 20, bottom: 20, left: 20, right: 20, background: '#ffffff' }).png().toBuffer();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
