import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../core/logging.js';

const RESTART_DELAY_MS = 500;
/** How long redis-server gets to flush its append-only file after SIGTERM before SIGKILL. */
const STOP_GRACE_MS = 5000;

/**
 * The private redis-server of single-node mode: a unix socket under the data folder, no TCP port,
 * append-only persistence and noeviction (queues must never lose entries). Restarted if it dies,
 * never once the appliance is stopping.
 *
 * It runs in its own process group: a Ctrl-C (or `timeout`, or any signal to the appliance's
 * group) reaches the appliance and its workers, not Redis, so the workers can finish their tasks
 * against a live Redis and the appliance stops Redis last. A server left behind by an appliance
 * that was SIGKILLed is found by its pid file and stopped before a new one starts.
 */
export class RedisServerSupervisor {
  private proc?: ChildProcess;
  private stopping = false;
  private restartTimer?: NodeJS.Timeout;
  readonly socketPath: string;
  readonly dir: string;
  private readonly pidFile: string;
  /** Times the server was (re)started; tests read it. */
  starts = 0;

  constructor(private readonly opts: { dataDir: string; bin: string; logger: Logger }) {
    this.dir = join(opts.dataDir, 'redis');
    this.socketPath = join(this.dir, 'redis.sock');
    this.pidFile = join(this.dir, 'redis.pid');
  }

  get url(): string {
    return `unix://${this.socketPath}`;
  }

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  async start(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await this.stopLeftover();
    this.spawn();
  }

  /** From now on an exit is a stop, not a crash: nothing is restarted. */
  markStopping(): void {
    this.stopping = true;
    clearTimeout(this.restartTimer);
  }

  private spawn(): void {
    if (this.stopping) return;
    const args = [
      '--port',
      '0',
      '--unixsocket',
      this.socketPath,
      '--unixsocketperm',
      '700',
      '--dir',
      this.dir,
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--save',
      '',
      '--maxmemory-policy',
      'noeviction',
      '--daemonize',
      'no',
      '--loglevel',
      'warning',
      '--pidfile',
      this.pidFile,
    ];
    const proc = spawn(this.opts.bin, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    this.starts++;
    this.proc = proc;
    proc.stderr?.on('data', (d) => this.opts.logger.warn({ redis: String(d).trim() }, 'redis-server'));
    proc.on('error', (err) => this.opts.logger.error({ err: err.message }, 'redis-server could not start'));
    proc.on('exit', (code, signal) => {
      if (this.stopping) return;
      this.opts.logger.error({ code, signal }, 'redis-server exited; restarting');
      this.restartTimer = setTimeout(() => this.spawn(), RESTART_DELAY_MS);
    });
  }

  /** SIGTERM (Redis flushes its append-only file), SIGKILL after a few seconds. */
  async stop(): Promise<void> {
    this.markStopping();
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }

  /** The stop deadline has passed: SIGKILL without waiting. */
  kill(): void {
    this.markStopping();
    this.proc?.kill('SIGKILL');
  }

  /** A redis-server of an earlier appliance still serving this folder (its pid file names it). */
  private async stopLeftover(): Promise<void> {
    const pid = Number((await readFile(this.pidFile, 'utf8').catch(() => '')).trim());
    if (!pid) return;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (!cmdline.includes(this.socketPath)) return;
    this.opts.logger.warn({ pid }, 'stopping the redis-server an earlier appliance left running');
    process.kill(pid, 'SIGTERM');
    for (let waited = 0; waited < STOP_GRACE_MS && (await alive(pid)); waited += 100) await new Promise((r) => setTimeout(r, 100));
    if (await alive(pid)) process.kill(pid, 'SIGKILL');
  }
}

async function alive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat !== '' && !/^\d+ \(.*\) Z/.test(stat);
}
