import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUNTIME_IMPORTS } from '../../core/runtime.js';
import { freePort, waitFor } from './ports.js';

export interface ApplianceProcess {
  url: string;
  dataDir: string;
  proc: ChildProcess;
  output: () => string;
  /** Direct children of the appliance whose command line matches. */
  childPids(match: RegExp): number[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of running) p.kill('SIGKILL');
});

/**
 * Starts `appliance/main.ts` as a real process on a free port with its own data folder.
 * `opts.dataDir` reuses a folder the caller owns (a restart on the same data): stop() then leaves it in place.
 */
/** `opts.ownGroup` starts it in a new session and process group, as a terminal or `setsid` does. */
export async function spawnAppliance(
  env: Record<string, string> = {},
  opts: { waitHealthy?: boolean; dataDir?: string; ownGroup?: boolean; /** @default 60_000 */ startTimeoutMs?: number } = {},
): Promise<ApplianceProcess> {
  const port = await freePort();
  const ownsDataDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'folio-app-')));
  let out = '';
  const proc = spawn(process.execPath, [...RUNTIME_IMPORTS, 'appliance/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', FOLIO_DATA_DIR: dataDir, FOLIO_HEARTBEAT_MS: '300', FOLIO_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opts.ownGroup ?? false,
  });
  running.add(proc);
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  const app: ApplianceProcess = {
    url,
    dataDir,
    proc,
    output: () => out,
    childPids(match) {
      try {
        const ps = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(proc.pid)], { encoding: 'utf8' });
        return ps
          .split('\n')
          .filter((l) => match.test(l))
          .map((l) => Number(l.trim().split(/\s+/)[0]));
      } catch {
        return [];
      }
    },
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      const code = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 30_000))]);
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      // A SIGKILLed appliance cannot stop its children: its redis-server (own process group) is left.
      if (signal === 'SIGKILL') for (const p of await processesOf(dataDir)) killQuietly(p.pid);
      running.delete(proc);
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
      return code;
    },
  };
  // A start that never becomes healthy must not leave the appliance (and its children) running.
  const ready = await waitFor(
    async () => {
      if (proc.exitCode !== null) return 'exited';
      const res = await fetch(`${url}/health`);
      if (opts.waitHealthy === false) return 'ready';
      // Up means healthy with every expected worker beating, so tests never race a slow child.
      const h = (await res.json()) as { status: string; document_workers_alive: number; document_workers_expected: number };
      return res.status === 200 && h.document_workers_alive >= h.document_workers_expected && 'ready';
    },
    opts.startTimeoutMs ?? 60_000,
    100,
  ).catch(async (err: Error) => {
    await app.stop('SIGKILL');
    throw new Error(`${err.message}\n${out}`);
  });
  if (ready === 'exited') {
    running.delete(proc);
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    throw new Error(`appliance exited ${proc.exitCode}: ${out}`);
  }
  return app;
}

/**
 * Every process serving the appliance of `dataDir`: the appliance and workers carry it in their
 * environment, its private redis-server in its command line. What systemd's control group of the
 * unit would hold, found without needing a cgroup.
 */
export async function processesOf(dataDir: string): Promise<{ pid: number; cmd: string }[]> {
  const found: { pid: number; cmd: string }[] = [];
  for (const entry of await readdir('/proc')) {
    const pid = Number(entry);
    if (!pid || pid === process.pid) continue;
    const [cmd, env, stat] = await Promise.all(['cmdline', 'environ', 'stat'].map((f) => readFile(`/proc/${pid}/${f}`, 'latin1').catch(() => '')));
    if (!stat || /^\d+ \(.*\) Z/.test(stat)) continue;
    if (cmd.includes(dataDir) || env.split('\0').includes(`FOLIO_DATA_DIR=${dataDir}`)) found.push({ pid, cmd: cmd.replaceAll('\0', ' ').trim() });
  }
  return found;
}

/** SIGKILL, ignoring a process that is already gone. */
export function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // exited meanwhile
  }
}
