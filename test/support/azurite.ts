import { BlobServiceClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitFor } from './ports.js';

export const AZURITE_ACCOUNT = 'devstoreaccount1';
export const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

export interface TestAzurite {
  /** http://127.0.0.1:<port>/devstoreaccount1 */
  accountUrl: string;
  accountKey: string;
  createContainer(name: string): Promise<void>;
  stop(): Promise<void>;
}

const bin = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../node_modules/.bin/azurite-blob');

/** Azurite's blob service as a child process on a free port with its own workspace, gone after stop(). */
export async function startAzurite(): Promise<TestAzurite> {
  const port = await freePort();
  const location = await mkdtemp(join(tmpdir(), 'folio-azurite-'));
  const proc: ChildProcess = spawn(
    bin,
    ['--blobHost', '127.0.0.1', '--blobPort', String(port), '--location', location, '--silent', '--skipApiVersionCheck', '--loose', '--disableTelemetry'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  proc.stderr?.on('data', (d) => (stderr += String(d)));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const accountUrl = `http://127.0.0.1:${port}/${AZURITE_ACCOUNT}`;
  try {
    await waitFor(
      () => {
        if (proc.exitCode !== null) throw new Error(`azurite-blob exited ${proc.exitCode}: ${stderr}`);
        return answers(`${accountUrl}?comp=list`);
      },
      30_000,
      100,
    );
  } catch (err) {
    proc.kill('SIGKILL');
    await rm(location, { recursive: true, force: true });
    throw err;
  }
  const service = new BlobServiceClient(accountUrl, new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY));
  return {
    accountUrl,
    accountKey: AZURITE_KEY,
    async createContainer(name) {
      await service.getContainerClient(name).create();
    },
    async stop() {
      if (proc.exitCode === null) {
        proc.kill('SIGTERM');
        const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(location, { recursive: true, force: true });
    },
  };
}

/** True once anything answers HTTP on the URL (an unauthenticated request gets 403, which is enough). */
function answers(url: string): Promise<boolean> {
  return new Promise((res) => {
    const req = request(url, { method: 'GET', timeout: 1_000 }, (r) => {
      r.resume();
      res(true);
    });
    req.on('error', () => res(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}
