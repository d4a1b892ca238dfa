import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, waitFor } from './ports.js';

export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** A real redis-server on a free port with its own data folder, gone after stop(). */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'folio-redis-'));
  const proc: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  await waitFor(async () => {
    const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    r.on('error', () => undefined); // refused until the server listens; waitFor retries
    try {
      await r.connect();
      return (await r.ping()) === 'PONG';
    } finally {
      r.disconnect();
    }
  });
  return {
    url,
    port,
    async stop() {
      proc.kill('SIGKILL');
      await new Promise((r) => proc.once('exit', r));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
