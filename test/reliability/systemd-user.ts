import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, rmdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from '../support/ports.js';

/**
 * A real systemd (the distribution's /lib/systemd/systemd, as a user manager) for tests that must
 * see what `systemctl stop` does to a unit, on a machine that was not booted with systemd (a
 * container, a CI runner). systemd refuses to run a user manager unless /run/systemd/system
 * exists, so it runs in a private mount namespace where a tmpfs on /run/systemd holds that
 * folder; the host's /run is untouched. It runs in its own cgroup, made for it and removed after.
 * Unit files go to its runtime unit folder, inside the test's temp folder.
 */

const run = promisify(execFile);
const SYSTEMD = '/lib/systemd/systemd';
const BOOT = 'mkdir -p /run/systemd && mount -t tmpfs tmpfs /run/systemd && mkdir /run/systemd/system && exec "$0" --user';

/** Why a user manager cannot run here, or undefined when it can. */
export function systemdUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'not root (a private mount namespace and a cgroup are needed)';
  if (!existsSync(SYSTEMD)) return `no ${SYSTEMD}`;
  for (const tool of ['unshare', 'nsenter', 'systemctl'])
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    } catch {
      return `no ${tool}`;
    }
  if (!cgroupRoots().length) return 'no writable cgroup hierarchy';
  return undefined;
}

/** The cgroup hierarchies systemd tracks processes in: the unified one, and the named v1 one on a hybrid layout. */
function cgroupRoots(): string[] {
  if (existsSync('/sys/fs/cgroup/cgroup.controllers')) return ['/sys/fs/cgroup'];
  return ['/sys/fs/cgroup/unified', '/sys/fs/cgroup/systemd'].filter((d) => existsSync(join(d, 'cgroup.procs')));
}

export interface UserManager {
  /** Runs `systemctl --user` against this manager; resolves with its stdout. */
  systemctl(...args: string[]): Promise<string>;
  /** Writes `<name>` into the manager's unit folder and reloads. */
  install(name: string, text: string): Promise<void>;
  /** Stops the manager, removes its cgroup and folder. */
  stop(): Promise<void>;
}

export async function startUserManager(): Promise<UserManager> {
  const home = await mkdtemp(join(tmpdir(), 'folio-systemd-'));
  const runtime = join(home, 'run');
  await mkdir(join(runtime, 'systemd', 'user'), { recursive: true, mode: 0o700 });
  const cgroups = cgroupRoots().map((root) => join(root, `folio-test-${process.pid}-${Date.now()}`));
  for (const dir of cgroups) await mkdir(dir);
  const enter = cgroups.map((dir) => `echo $$ > ${dir}/cgroup.procs`).join(' && ');
  const env = { ...process.env, XDG_RUNTIME_DIR: runtime, XDG_CONFIG_HOME: join(home, 'config'), HOME: home };
  const manager: ChildProcess = spawn('sh', ['-c', `${enter} && exec unshare --mount --propagation private sh -c '${BOOT}' ${SYSTEMD}`], {
    env,
    stdio: 'ignore',
  });
  const systemctl = async (...args: string[]) =>
    (await run('nsenter', ['-t', String(manager.pid), '-m', 'env', `XDG_RUNTIME_DIR=${runtime}`, 'systemctl', '--user', '--no-pager', ...args], { env }))
      .stdout;
  const stop = async () => {
    manager.kill('SIGTERM');
    await waitFor(() => manager.exitCode !== null || manager.signalCode !== null, 10_000, 50).catch(() => manager.kill('SIGKILL'));
    for (const dir of cgroups) await removeCgroup(dir);
    await rm(home, { recursive: true, force: true });
  };
  try {
    await waitFor(async () => ['running', 'degraded'].includes((await systemctl('is-system-running').catch((e) => e.stdout ?? '')).trim()), 20_000, 200);
  } catch (err) {
    await stop();
    throw new Error(`systemd --user did not start: ${(err as Error).message}`);
  }
  return {
    systemctl,
    async install(name, text) {
      await writeFile(join(runtime, 'systemd', 'user', name), text);
      await systemctl('daemon-reload');
    },
    stop,
  };
}

/** Removes a cgroup folder and the ones systemd left in it, deepest first. */
async function removeCgroup(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) if (e.isDirectory()) await removeCgroup(join(dir, e.name));
  await rmdir(dir).catch(() => undefined);
}
