import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, waitFor } from '../support/ports.js';
export { processesOf } from '../support/appliance.js';

/**
 * A redis-server with an append-only file in its own folder on a fixed port, so a test can
 * SIGKILL it and start it again on the same port over the same data.
 */
export async function startPersistentRedis() {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'folio-redis-aof-'));
  const url = `redis://127.0.0.1:${port}`;
  let proc: ChildProcess | undefined;
  const up = async () => {
    proc = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'everysec',
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: 'ignore' },
    );
    await waitFor(async () => {
      const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      r.on('error', () => undefined);
      try {
        await r.connect();
        return (await r.ping()) === 'PONG';
      } finally {
        r.disconnect();
      }
    }, 15_000);
  };
  const kill = () => killAndWait(proc);
  await up();
  return {
    url,
    port,
    dir,
    start: up,
    kill,
    async stop() {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Occurrences of `Body of page N.` for N = 1..pages in an MMD file: each must be 1. */
export async function pageCounts(mmdPath: string, pages: number): Promise<number[]> {
  const text = await readFile(mmdPath, 'utf8');
  return Array.from({ length: pages }, (_, i) => text.split(`Body of page ${i + 1}.`).length - 1);
}

/** Resident set size (kB) of a process, from /proc. */
export async function rssKb(pid: number): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * s3rver as a child process on a fixed port and folder, so a test can stop it and start it again
 * on the same port over the same objects (test/support/s3rver.ts picks a new port each time).
 */
export async function startRestartableS3rver() {
  const { createRequire } = await import('node:module');
  const { dirname } = await import('node:path');
  const cli = join(dirname(createRequire(import.meta.url).resolve('s3rver/package.json')), 'bin', 's3rver.js');
  const port = await freePort();
  const directory = await mkdtemp(join(tmpdir(), 'folio-s3rver-rel-'));
  let proc: ChildProcess | undefined;
  const up = async () => {
    let output = '';
    const p = spawn(
      process.execPath,
      ['--openssl-legacy-provider', cli, '--directory', directory, '--address', '127.0.0.1', '--port', String(port), '--silent'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    proc = p;
    p.stdout?.on('data', (d) => (output += String(d)));
    p.stderr?.on('data', (d) => (output += String(d)));
    await waitFor(() => {
      if (p.exitCode !== null) throw new Error(`s3rver exited ${p.exitCode}: ${output}`);
      return output.includes('S3rver listening on');
    }, 20_000);
  };
  const down = () => killAndWait(proc);
  await up();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    directory,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    start: up,
    kill: down,
    async stop() {
      await down();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** SIGKILLs a child that is still running and resolves once it has exited. */
async function killAndWait(p: ChildProcess | undefined): Promise<void> {
  if (!p || p.exitCode !== null || p.signalCode !== null) return;
  const exited = new Promise((r) => p.once('exit', r));
  p.kill('SIGKILL');
  await exited;
}

/** Whether nothing listens on 127.0.0.1:`port` (binding it succeeds). */
export async function portFree(port: number): Promise<boolean> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}
