import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema, loadConfig } from '../../core/config.js';
import { RUNTIME_ENV } from '../../core/runtime.js';
import { freePort, waitFor } from '../support/ports.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const INSTALL = join(REPO, 'installer/install.sh');
const SCHEMA_KEYS = Object.keys(configSchema.shape) as (keyof typeof configSchema.shape)[];
/** PATH systemd gives services on Debian 12. */
const SYSTEMD_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const exec = promisify(execFile);

/** Runs install.sh in stub mode (no systemctl, useradd, chown or apt) against the temp root. */
async function install(root: string, ...args: string[]) {
  const { stdout, stderr } = await exec('bash', [INSTALL, '--root', root, ...args], {
    env: { ...process.env, FOLIO_INSTALL_SYSTEMCTL: 'echo' },
    timeout: 30_000,
  });
  return stdout + stderr;
}

/** Every file, directory and symlink under dir (symlinks not followed): content hash and mode. */
function treeDigest(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = lstatSync(p);
      const rel = relative(dir, p);
      if (st.isSymbolicLink()) out.set(rel, `link ${readlinkSync(p)}`);
      else if (st.isDirectory()) {
        out.set(rel, `dir ${st.mode.toString(8)}`);
        walk(p);
      } else out.set(rel, `file ${st.mode.toString(8)} ${createHash('sha256').update(readFileSync(p)).digest('hex')}`);
    }
  };
  walk(dir);
  return out;
}

interface Unit {
  text: string;
  /** Last value of each key (Environment collected separately). */
  keys: Map<string, string>;
  environment: Record<string, string>;
}

function readUnit(file: string): Unit {
  const text = readFileSync(file, 'utf8');
  const keys = new Map<string, string>();
  const environment: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (!m) continue;
    if (m[1] === 'Environment') {
      const [k, ...v] = m[2].split('=');
      environment[k] = v.join('=');
    } else keys.set(m[1], m[2]);
  }
  return { text, keys, environment };
}

/** Active KEY=value lines of an EnvironmentFile, as systemd reads them. */
function readEnvFile(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (m) env[m[1]] = m[2];
  }
  return env;
}

interface Running {
  proc: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Starts a unit's ExecStart the way systemd would: its WorkingDirectory, a clean environment with
 * systemd's PATH, then Environment= lines, then the EnvironmentFile (which wins), then overrides.
 * %i and %H are expanded; User= is not applied (see the report of what this test does not cover).
 */
function startUnit(unit: Unit, overrides: Record<string, string>, instance = ''): Running {
  const expand = (s: string) => s.replaceAll('%i', instance).replaceAll('%H', 'testhost');
  const [cmd, ...args] = expand(unit.keys.get('ExecStart')!).split(/\s+/);
  const env: Record<string, string> = { PATH: SYSTEMD_PATH, HOME: overrides.HOME ?? tmpdir(), LANG: 'C.UTF-8' };
  for (const [k, v] of Object.entries(unit.environment)) env[k] = expand(v);
  Object.assign(env, readEnvFile(unit.keys.get('EnvironmentFile')!), overrides);
  let out = '';
  const proc = spawn(cmd, args, { cwd: unit.keys.get('WorkingDirectory'), env, stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return { proc, output: () => out, exited };
}

async function stop(r: Running): Promise<number | null> {
  if (r.proc.exitCode === null && r.proc.signalCode === null) r.proc.kill('SIGTERM');
  const code = await Promise.race([r.exited, new Promise<'timeout'>((res) => setTimeout(() => res('timeout'), 25_000))]);
  if (code === 'timeout') {
    r.proc.kill('SIGKILL');
    throw new Error(`did not stop within 25 s: ${r.output()}`);
  }
  return code;
}

/**
 * /health once it is ok and a document worker is alive too: ok needs only an inference worker
 * (the spec's rule), and the document worker's first heartbeat may come a moment later.
 */
async function waitHealthy(port: number, running: Running[]) {
  return waitFor(
    async () => {
      const dead = running.find((r) => r.proc.exitCode !== null);
      if (dead) throw new Error(`exited ${dead.proc.exitCode}: ${dead.output()}`);
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      const body = (await res.json()) as Record<string, unknown>;
      return res.status === 200 && body.document_workers_alive === 1 && body;
    },
    40_000,
    200,
  ).catch((err) => {
    throw new Error(`${String(err)}\n${running.map((r) => r.output()).join('\n---\n')}`);
  });
}

describe('installer/install.sh into a temporary root (FOLIO_INSTALL_SYSTEMCTL=echo)', () => {
  let root: string;
  let firstLog: string;
  const app = () => join(root, 'opt/folio');
  const envFile = () => join(root, 'etc/folio/folio.env');
  const dataDir = () => join(root, 'var/lib/folio');
  const unitFile = (name: string) => join(root, 'etc/systemd/system', name);
  const running: Running[] = [];

  // The checkout installed: a snapshot of this repository taken with the installer's own file list
  // (so edits landing in the working tree mid-test cannot make the second run differ), with the
  // repository's node_modules linked in place of npm ci.
  let source: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-installer-'));
    source = join(root, 'checkout');
    await exec('bash', [INSTALL, '--copy-sources', REPO, source]);
    await symlink(join(REPO, 'node_modules'), join(source, 'node_modules'));
    firstLog = await install(root, '--source', source, '--skip-npm', '--no-start');
  });
  afterAll(async () => {
    // SIGTERM first: an appliance left running by a failed test stops its Redis and workers too
    // (SIGKILL would orphan them); stop() kills what does not stop in time.
    await Promise.all(running.filter((r) => r.proc.exitCode === null).map((r) => stop(r).catch(() => undefined)));
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('installs the application tree from the checkout', () => {
    for (const f of [
      'appliance/main.ts',
      'worker/main.ts',
      'core/config.ts',
      'license/vendor-public-key.pem',
      'models/manifest.json',
      'package.json',
      'installer/install.sh',
      'installer/folio.env.in',
      '.folio-release',
    ]) {
      expect(existsSync(join(app(), f)), f).toBe(true);
    }
    expect(existsSync(join(app(), 'core/config.test.ts')), 'unit tests stay behind').toBe(false);
    expect(existsSync(join(app(), 'test')), 'test/ stays behind').toBe(false);
    expect(lstatSync(join(app(), 'node_modules')).isSymbolicLink()).toBe(true);
    expect(statSync(dataDir()).isDirectory()).toBe(true);
    // Host-changing commands are only logged; --no-start enables without --now.
    expect(firstLog).toContain('[stub] systemctl daemon-reload');
    expect(firstLog).toMatch(/\[stub\] systemctl enable folio\.service\n/);
    expect(firstLog).not.toMatch(/\[stub\] systemctl enable --now/);
  });

  it('writes an env file documenting every variable of the config schema, with true defaults', () => {
    const text = readFileSync(envFile(), 'utf8');
    expect(statSync(envFile()).mode & 0o777).toBe(0o640);
    const missing = SCHEMA_KEYS.filter((k) => !new RegExp(`^#?${k}=`, 'm').test(text));
    expect(missing, 'variables of core/config.ts missing from folio.env').toEqual([]);
    // Active settings: only the data folder, inside the (temporary) root.
    expect(readEnvFile(envFile())).toEqual({ FOLIO_DATA_DIR: dataDir() });
    // Each commented default is the schema's default, and uncommenting every line still parses.
    const commented: Record<string, string> = {};
    for (const m of text.matchAll(/^#([A-Z][A-Z0-9_]*)=(.*)$/gm)) commented[m[1]] = m[2];
    for (const k of SCHEMA_KEYS) {
      const field = configSchema.shape[k];
      const dflt = field.safeParse(undefined);
      if (k in commented && dflt.success && dflt.data !== undefined) {
        expect(field.parse(commented[k]), `documented default of ${k}`).toEqual(dflt.data);
      }
    }
    expect(() => loadConfig({ ...commented, ...readEnvFile(envFile()) })).not.toThrow();
  });

  it('writes valid-looking units for the appliance and the worker template', () => {
    const appliance = readUnit(unitFile('folio.service'));
    expect(appliance.keys.get('ExecStart')).toBe(`${app()}/bin/node --import tsx --import ./core/no-source-maps.ts appliance/main.ts`);
    expect(appliance.keys.get('User')).toBe('folio');
    expect(appliance.keys.get('WorkingDirectory')).toBe(app());
    expect(appliance.keys.get('EnvironmentFile')).toBe(envFile());
    expect(appliance.keys.get('KillMode')).toBe('mixed');
    expect(appliance.keys.get('WantedBy')).toBe('multi-user.target');
    expect(appliance.text).toMatch(/^\[Unit\]$[\s\S]*^\[Service\]$[\s\S]*^\[Install\]$/m);

    const worker = readUnit(unitFile('folio-worker@.service'));
    expect(worker.keys.get('ExecStart')).toBe(`${app()}/bin/node --import tsx --import ./core/no-source-maps.ts worker/main.ts %i`);
    expect(worker.keys.get('User')).toBe('folio');
    expect(worker.keys.get('WorkingDirectory')).toBe(app());
    expect(worker.keys.get('EnvironmentFile')).toBe(envFile());
    expect(worker.environment.FOLIO_WORKER_ID).toBe('%H-%i');
    for (const unit of [appliance, worker]) for (const [k, v] of Object.entries(RUNTIME_ENV)) expect(unit.environment[k], k).toBe(v);
    // Every line is a section, a comment, a blank or Key=value.
    for (const unit of [appliance, worker]) {
      for (const line of unit.text.split('\n')) expect(line).toMatch(/^(|#.*|\[[A-Za-z]+\]|[A-Za-z]+=.+)$/);
    }
  });

  it('changes nothing on a second run', async () => {
    const before = treeDigest(join(root, 'opt'));
    const beforeEtc = treeDigest(join(root, 'etc'));
    const beforeVar = treeDigest(join(root, 'var'));
    const envMtime = statSync(envFile()).mtimeMs;
    const log = await install(root, '--source', source, '--skip-npm', '--no-start');
    expect(log).toContain('is up to date');
    expect(log).toContain('never overwritten');
    expect(log).not.toContain('try-restart');
    expect(treeDigest(join(root, 'opt'))).toEqual(before);
    expect(treeDigest(join(root, 'etc'))).toEqual(beforeEtc);
    expect(treeDigest(join(root, 'var'))).toEqual(beforeVar);
    expect(statSync(envFile()).mtimeMs).toBe(envMtime);
  });

  it('starts the appliance from the installed tree with the unit command line, and stops it with exit 0', async () => {
    const port = await freePort();
    const r = startUnit(readUnit(unitFile('folio.service')), { PORT: String(port), HOST: '127.0.0.1', HOME: dataDir(), FOLIO_LOG_LEVEL: 'warn' });
    running.push(r);
    const health = await waitHealthy(port, [r]);
    expect(health).toMatchObject({ status: 'ok', redis_connected: true, gpu_workers_alive: 1, document_workers_alive: 1 });
    const status = (await (await fetch(`http://127.0.0.1:${port}/pco/v1/status`)).json()) as Record<string, unknown>;
    expect(status.build_id).toBe('folio-0.1.0');
    expect(await stop(r)).toBe(0);
    // State went to the data folder named by the env file.
    expect(existsSync(join(dataDir(), 'folio.sqlite'))).toBe(true);
  });

  it('scale-out: the appliance without workers plus folio-worker@inference and @document on a shared Redis', async () => {
    const redisPort = await freePort();
    const redis = spawn(
      'redis-server',
      ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'],
      { stdio: 'ignore' },
    );
    try {
      const REDIS_URL = `redis://127.0.0.1:${redisPort}/0`;
      const port = await freePort();
      const shared = { REDIS_URL, HOME: dataDir(), FOLIO_LOG_LEVEL: 'warn', FOLIO_QUEUE_PREFIX: 'scaleout' };
      const appliance = startUnit(readUnit(unitFile('folio.service')), { ...shared, PORT: String(port), HOST: '127.0.0.1', FOLIO_SPAWN_WORKERS: 'false' });
      const worker = readUnit(unitFile('folio-worker@.service'));
      const workers = [startUnit(worker, shared, 'inference'), startUnit(worker, shared, 'document')];
      running.push(appliance, ...workers);
      const health = await waitHealthy(port, [appliance, ...workers]);
      expect(health).toMatchObject({ status: 'ok', gpu_workers_alive: 1, document_workers_alive: 1 });
      for (const w of workers) expect(await stop(w)).toBe(0);
      expect(await stop(appliance)).toBe(0);
    } finally {
      redis.kill('SIGTERM');
    }
  });

  it('--uninstall removes the units and the application, keeps the env file and the data folder', async () => {
    const envHash = createHash('sha256').update(readFileSync(envFile())).digest('hex');
    const log = await install(root, '--uninstall');
    expect(log).toContain('[stub] systemctl disable --now folio.service');
    expect(existsSync(unitFile('folio.service'))).toBe(false);
    expect(existsSync(unitFile('folio-worker@.service'))).toBe(false);
    expect(existsSync(app())).toBe(false);
    expect(createHash('sha256').update(readFileSync(envFile())).digest('hex')).toBe(envHash);
    expect(existsSync(join(dataDir(), 'folio.sqlite'))).toBe(true);
  });
});
