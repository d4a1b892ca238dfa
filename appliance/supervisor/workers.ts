import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { RUNTIME_IMPORTS, withRuntimeEnv } from '../../core/runtime.js';
import type { Logger } from '../../core/logging.js';
import type { WorkerRole } from '../../core/heartbeat.js';

const WORKER_MAIN = fileURLToPath(new URL('../../worker/main.ts', import.meta.url));
const RESTART_DELAY_MS = 500;

interface Child {
  role: WorkerRole;
  index: number;
  proc?: ChildProcess;
  restarts: number;
}

/**
 * Starts the worker processes as children, restarts any that die, and stops them on stop().
 * Once the appliance is stopping (markStopping), a child that exits has stopped: it is never
 * restarted, whoever sent it the signal (a Ctrl-C reaches the whole process group).
 */
export class WorkerSupervisor {
  private readonly children: Child[] = [];
  private stopping = false;

  constructor(private readonly opts: { inference: number; document: number; env: NodeJS.ProcessEnv; logger: Logger; drainMs: number }) {
    for (let i = 0; i < opts.inference; i++) this.children.push({ role: 'inference', index: i, restarts: 0 });
    for (let i = 0; i < opts.document; i++) this.children.push({ role: 'document', index: i, restarts: 0 });
  }

  start(): void {
    for (const c of this.children) this.spawn(c);
  }

  /** Pids of the live children, by role (tests kill them). */
  pids(role?: WorkerRole): number[] {
    return this.children.filter((c) => !role || c.role === role).flatMap((c) => (c.proc?.pid ? [c.proc.pid] : []));
  }

  /** From now on an exit is a stop, not a crash. */
  markStopping(): void {
    this.stopping = true;
  }

  private spawn(c: Child): void {
    if (this.stopping) return;
    const proc = spawn(process.execPath, [...RUNTIME_IMPORTS, WORKER_MAIN, c.role], {
      env: withRuntimeEnv({ ...this.opts.env, FOLIO_WORKER_ID: `${c.role}-${c.index}-${process.pid}-${c.restarts}` }),
      // The IPC channel is how a child learns that the appliance is gone, even after a SIGKILL.
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    c.proc = proc;
    proc.on('exit', (code, signal) => {
      if (this.stopping) return;
      c.restarts++;
      this.opts.logger.error({ role: c.role, index: c.index, code, signal }, 'worker exited; restarting');
      setTimeout(() => this.spawn(c), RESTART_DELAY_MS);
    });
  }

  /** SIGTERM to every child; each drains its in-flight task, then SIGKILL after the drain limit. */
  async stop(): Promise<void> {
    this.markStopping();
    await Promise.all(
      this.children.map(async (c) => {
        const p = c.proc;
        if (!p || p.exitCode !== null || p.signalCode !== null) return;
        const exited = new Promise((r) => p.once('exit', r));
        p.kill('SIGTERM');
        const timer = setTimeout(() => p.kill('SIGKILL'), this.opts.drainMs + 2000);
        await exited;
        clearTimeout(timer);
      }),
    );
  }

  /** The stop deadline has passed: SIGKILL every child still running, without waiting. */
  kill(): void {
    this.markStopping();
    for (const c of this.children) c.proc?.kill('SIGKILL');
  }
}
