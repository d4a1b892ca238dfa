import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort, waitFor } from './ports.js';

export interface TestS3 {
  /** http://127.0.0.1:<port>, for path-style S3 clients. */
  endpoint: string;
  /** s3rver's data folder (benchmarks lay objects out in it directly). */
  directory: string;
  accessKeyId: string;
  secretAccessKey: string;
  createBucket(name: string): Promise<void>;
  stop(): Promise<void>;
}

const cli = join(dirname(createRequire(import.meta.url).resolve('s3rver/package.json')), 'bin', 's3rver.js');

/**
 * A real s3rver on a free port with its own data folder, gone after stop(). Credentials: S3RVER/S3RVER.
 *
 * It runs as a child process because s3rver signs ListObjectsV2 continuation tokens with DES, which
 * OpenSSL 3 only offers through its legacy provider: without --openssl-legacy-provider every listing
 * that needs a second page fails with InternalError (ERR_OSSL_EVP_UNSUPPORTED).
 */
export async function startS3rver(): Promise<TestS3> {
  const port = await freePort();
  const directory = await mkdtemp(join(tmpdir(), 'folio-s3rver-'));
  const proc: ChildProcess = spawn(
    process.execPath,
    ['--openssl-legacy-provider', cli, '--directory', directory, '--address', '127.0.0.1', '--port', String(port), '--silent'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  proc.stdout?.on('data', (d) => (output += String(d)));
  proc.stderr?.on('data', (d) => (output += String(d)));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  try {
    await waitFor(() => {
      if (proc.exitCode !== null) throw new Error(`s3rver exited ${proc.exitCode}: ${output}`);
      return output.includes('S3rver listening on');
    }, 20_000);
  } catch (err) {
    proc.kill('SIGKILL');
    await rm(directory, { recursive: true, force: true });
    throw err;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return {
    endpoint,
    directory,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    async createBucket(name) {
      await client.send(new CreateBucketCommand({ Bucket: name }));
    },
    async stop() {
      client.destroy();
      if (proc.exitCode === null) {
        proc.kill('SIGTERM');
        const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}
