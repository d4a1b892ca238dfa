import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../core/errors.js';
import type { Resolver } from '../../../core/ssrf.js';
import { StorageError } from '../../../core/storage/index.js';
import { connectDataSource } from './connect.js';
import { checkEndpoint } from './endpoint.js';
import type { DataSource } from './store.js';

const fixed =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses;
const PUBLIC = '93.184.216.34';

async function refusal(raw: unknown, policy: Parameters<typeof checkEndpoint>[1] = {}): Promise<ApiError> {
  const err = await checkEndpoint(raw, { resolve: fixed(PUBLIC), ...policy }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, String(raw)).toBeInstanceOf(ApiError);
  expect([(err as ApiError).id, (err as ApiError).extras.field]).toEqual(['bad_request', 'endpoint']);
  return err as ApiError;
}

describe('checkEndpoint', () => {
  it('accepts a public domain name over http or https and stores its origin', async () => {
    expect(await checkEndpoint('https://s3.eu-central-1.wasabisys.com/', { resolve: fixed(PUBLIC) })).toBe('https://s3.eu-central-1.wasabisys.com');
    expect(await checkEndpoint('http://minio.example.org:9000', { resolve: fixed(PUBLIC) })).toBe('http://minio.example.org:9000');
  });

  it.each(['https://127.0.0.1:9000', 'https://0x7f.1', 'https://[::1]/', 'https://[::ffff:127.0.0.1]', 'https://169.254.169.254', 'https://93.184.216.34'])(
    'refuses the IP host %s in every mode',
    async (raw) => {
      await refusal(raw);
      await refusal(raw, { allowPrivate: true });
    },
  );

  it.each([
    'ftp://s3.example.com',
    'file:///etc/passwd',
    'https://user:pw@s3.example.com',
    'https://s3.example.com/bucket',
    'https://s3.example.com/?x=1',
    'not a url',
    42,
  ])('refuses %s', async (raw) => {
    await refusal(raw);
  });

  it.each(['http://localhost:9000', 'https://minio', 'https://s3.corp.internal', 'https://nas.local', 'https://box.home.arpa'])(
    'refuses the internal name %s outside lab mode',
    async (raw) => {
      await refusal(raw);
    },
  );

  it('refuses a public-looking name that resolves to a private address, and accepts it in lab mode', async () => {
    const err = await refusal('https://s3.attacker.example', { resolve: fixed(PUBLIC, '10.0.0.7') });
    expect(err.message).toMatch(/10\.0\.0\.0\/8/);
    expect(await checkEndpoint('http://localhost:9000', { allowPrivate: true, resolve: fixed('127.0.0.1') })).toBe('http://localhost:9000');
  });
});

describe('connections to a custom endpoint', () => {
  let server: http.Server;
  let connections = 0;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.writeHead(200).end());
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('re-checks the name at connection time: a rebinding to loopback gets no connection', async () => {
    // Registration saw a public address; every later answer points at the loopback listener.
    let lookups = 0;
    const rebinding: Resolver = async () => (lookups++ === 0 ? [PUBLIC] : ['127.0.0.1']);
    const source: DataSource = {
      data_source_id: 'ds_rebind',
      group_id: 'g',
      name: 'n',
      provider: 'aws',
      auth_method: 'access_key',
      bucket: 'papers',
      region: 'us-east-1',
      endpoint: `http://s3.rebind.example:${port}`,
      provider_specific_details: { access_key_id: 'AKID' },
      sealed_secret: null,
      created_by_app_id: 'app',
      created_at: '',
    };
    const storage = await connectDataSource(source, 'secret', { settings: {}, allowPrivate: false, resolve: rebinding });
    const err = await storage.write('probe', 'x').then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StorageError);
    expect((err as StorageError).kind).toBe('unreachable');
    expect((err as Error).message).toMatch(/private or reserved address/);
    expect(lookups).toBeGreaterThan(1);
    expect(connections).toBe(0);
  });
});
