import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../core/logging.js';

/**
 * The private redis-server of single-node mode: a unix socket under the data folder, no TCP port,
 * append-only persistence and noeviction (queues must never lose entries). Restarted if it dies.
 */
export class RedisServerSupervisor {
  private proc?: ChildProcess;
  private stopping = false;
  private restartTimer?: NodeJS.Timeout;
  readonly socketPath: string;
  readonly dir: string;
  /** Times the server was (re)started; tests read it. */
  starts = 0;

  constructor(private readonly opts: { dataDir: string; bin: string; logger: Logger }) {
    this.dir = join(opts.dataDir, 'redis');
    this.socketPath = join(this.dir, 'redis.sock');
  }

  get url(): string {
    return `unix://${this.socketPath}`;
  }

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  async start(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    this.spawn();
  }

  private spawn(): void {
    const args = [
      '--port', '0', '--unixsocket', this.socketPath, '--unixsocketperm', '700', '--dir', this.dir,
      '--appendonly', 'yes', '--appendfsync', 'everysec', '--save', '', '--maxmemory-policy', 'noeviction',
      '--daemonize', 'no', '--loglevel', 'warning',
    ];
    const proc = spawn(this.opts.bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.starts++;
    this.proc = proc;
    proc.stderr?.on('data', (d) => this.opts.logger.warn({ redis: String(d).trim() }, 'redis-server'));
    proc.on('error', (err) => this.opts.logger.error({ err: err.message }, 'redis-server could not start'));
    proc.on('exit', (code, signal) => {
      if (this.stopping) return;
      this.opts.logger.error({ code, signal }, 'redis-server exited; restarting');
      this.restartTimer = setTimeout(() => this.spawn(), 500);
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}
