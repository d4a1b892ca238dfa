import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';

export interface TestS3 {
  /** http://127.0.0.1:<port>, for path-style S3 clients. */
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The underlying HTTP server (to count requests in tests). */
  httpServer: Server;
  createBucket(name: string): Promise<void>;
  stop(): Promise<void>;
}

interface S3rverInstance {
  run(): Promise<unknown>;
  close(): Promise<void>;
  httpServer: Server;
}
type S3rverCtor = new (opts: Record<string, unknown>) => S3rverInstance;

// s3rver ships no type declarations.
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverCtor;

/** A real s3rver, in-process, on a free port with its own data folder, gone after stop(). Credentials: S3RVER/S3RVER. */
export async function startS3rver(): Promise<TestS3> {
  const port = await freePort();
  const directory = await mkdtemp(join(tmpdir(), 'folio-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port, directory, silent: true, resetOnClose: false });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return {
    endpoint,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    httpServer: server.httpServer,
    async createBucket(name) {
      await client.send(new CreateBucketCommand({ Bucket: name }));
    },
    async stop() {
      client.destroy();
      server.httpServer.closeAllConnections();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
