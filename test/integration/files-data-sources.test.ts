import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDataSourceUri } from '../../appliance/files/data-sources/index.js';
import { SecretBox } from '../../appliance/files/data-sources/secret-box.js';
import { loadConfig } from '../../core/config.js';
import { ApiError } from '../../core/errors.js';
import { AzureStorage } from '../../core/storage/azure.js';
import { GcsStorage } from '../../core/storage/gcs.js';
import { S3Storage } from '../../core/storage/s3.js';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { AZURITE_ACCOUNT, type TestAzurite, startAzurite } from '../support/azurite.js';
import { type FakeGcs, startFakeGcs } from '../support/fake-gcs.js';
import { type TestS3, startS3rver } from '../support/s3rver.js';

// Files API data sources (spec 4.11) against a real appliance process, s3rver, Azurite and the
// GCS fake. Lab mode (FOLIO_ALLOW_PRIVATE_URLS) lets endpoints named `localhost` reach the test
// servers; IP hosts stay refused in every mode, and production refusals are unit-tested with an
// injected resolver (appliance/files/data-sources/endpoint.test.ts).
const DATA_SOURCE_KEY = randomBytes(32).toString('hex');
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

async function call(base: string, method: string, path: string, init: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  const res = await fetch(base + path, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(init.key ? { app_key: init.key } : {}), ...init.headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as any };
}

/** Creates an app in `group` through the operator routes and returns a key of it. */
async function newKey(base: string, name: string, group: string): Promise<string> {
  const app = await call(base, 'POST', '/pco/v1/apps', { body: { name, group_id: group } });
  return (await call(base, 'POST', `/pco/v1/apps/${app.body.app_id}/keys`)).body.app_key;
}

const labEnv = (extra: Record<string, string>) => ({
  FOLIO_SPAWN_WORKERS: 'false',
  FOLIO_ALLOW_PRIVATE_URLS: 'true',
  FOLIO_AZURE_EMULATOR: 'true',
  FOLIO_DATA_SOURCE_KEY: DATA_SOURCE_KEY,
  ...extra,
});

describe('Files API data sources', () => {
  let s3: TestS3;
  let azurite: TestAzurite;
  let gcs: FakeGcs;
  let app: ApplianceProcess;
  let keyA: string;
  let keyA2: string;
  let keyB: string;
  const api = (method: string, path: string, init: Parameters<typeof call>[3] = {}) => call(app.url, method, path, { key: keyA, ...init });
  const s3Endpoint = () => s3.endpoint.replace('127.0.0.1', 'localhost');
  const azureEndpoint = () => new URL(azurite.accountUrl).origin.replace('127.0.0.1', 'localhost');
  const s3Source = (over: Record<string, unknown> = {}) => ({
    name: 'papers',
    provider: 'aws',
    auth_method: 'access_key',
    bucket: 'papers',
    region: 'us-east-1',
    endpoint: s3Endpoint(),
    provider_specific_details: { access_key_id: s3.accessKeyId },
    secret: SECRET,
    ...over,
  });
  const azureSource = (over: Record<string, unknown> = {}) => ({
    name: 'scans',
    provider: 'azure',
    auth_method: 'azure_ad',
    bucket: 'scans',
    endpoint: azureEndpoint(),
    provider_specific_details: { azure_tenant_id: '72f988bf-86f1-41af-91ab-2d7cd011db47', storage_account: AZURITE_ACCOUNT },
    ...over,
  });

  beforeAll(async () => {
    [s3, azurite, gcs] = await Promise.all([startS3rver(), startAzurite(), startFakeGcs()]);
    await Promise.all([s3.createBucket('papers'), azurite.createContainer('scans'), gcs.createBucket('gcs-papers')]);
    app = await spawnAppliance(labEnv({ FOLIO_AZURE_ACCOUNT_KEY: azurite.accountKey, FOLIO_GCS_ENDPOINT: gcs.endpoint }), { waitHealthy: false });
    [keyA, keyA2, keyB] = [await newKey(app.url, 'alpha', 'group-a'), await newKey(app.url, 'alpha-2', 'group-a'), await newKey(app.url, 'beta', 'group-b')];
  }, 90_000);
  afterAll(async () => {
    await app?.stop();
    await Promise.all([s3?.stop(), azurite?.stop(), gcs?.stop()]);
  });

  it('answers 401 unauthorized without a valid app_key on every route', async () => {
    const routes: [string, string][] = [
      ['GET', '/files/v1/onboarding/identities'],
      ['POST', '/files/v1/data-sources'],
      ['GET', '/files/v1/data-sources'],
      ['DELETE', '/files/v1/data-sources/ds_x'],
      ['POST', '/files/v1/data-sources/ds_x/test'],
    ];
    for (const [method, path] of routes) {
      const missing = await call(app.url, method, path);
      expect([missing.status, missing.body.error, missing.body.error_info.message], path).toEqual([401, 'unauthorized', 'Missing app_key']);
      const invalid = await call(app.url, method, path, { key: 'app_nope_0123' });
      expect([invalid.status, invalid.body.error_info.message], path).toEqual([401, 'Invalid app_key']);
    }
  });

  it('gives each group one immutable external_id, shared by its keys and by aws and gcp', async () => {
    const first = await api('GET', '/files/v1/onboarding/identities');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ aws: { trust_account_id: null }, azure: { app_id: null, tenant_id: null }, gcp: { service_account_email: null } });
    expect(first.body.aws.external_id).toMatch(/^[0-9a-f]{32}$/);
    expect(first.body.gcp.external_id).toBe(first.body.aws.external_id);
    expect((await api('GET', '/files/v1/onboarding/identities')).body).toEqual(first.body);
    expect((await api('GET', '/files/v1/onboarding/identities', { key: keyA2 })).body).toEqual(first.body);
    const other = await api('GET', '/files/v1/onboarding/identities', { key: keyB });
    expect(other.body.aws.external_id).not.toBe(first.body.aws.external_id);
  });

  it('registers an s3 access_key source, keeps its secret sealed and verifies read and write on s3rver', async () => {
    const created = await api('POST', '/files/v1/data-sources', { body: s3Source() });
    expect(created.status).toBe(200);
    const id = created.body.data_source_id as string;
    const listed = await api('GET', '/files/v1/data-sources');
    const entry = listed.body.data_sources.find((d: { data_source_id: string }) => d.data_source_id === id);
    expect(entry).toMatchObject({ name: 'papers', provider: 'aws', auth_method: 'access_key', bucket: 'papers', region: 'us-east-1', endpoint: s3Endpoint() });
    expect(JSON.stringify(listed.body)).not.toContain(SECRET);

    // At rest: AES-256-GCM under the configured key, bound to the source id.
    const db = new Database(join(app.dataDir, 'folio.sqlite'), { readonly: true });
    const row = db.prepare('SELECT sealed_secret FROM files_data_sources WHERE data_source_id = ?').get(id) as { sealed_secret: string };
    db.close();
    expect(row.sealed_secret).toMatch(/^v1\./);
    expect(row.sealed_secret).not.toContain(SECRET);
    const box = new SecretBox(Buffer.from(DATA_SOURCE_KEY, 'hex'));
    expect(box.open(row.sealed_secret, id)).toBe(SECRET);
    expect(() => box.open(row.sealed_secret, 'ds_other')).toThrow();

    const tested = await api('POST', `/files/v1/data-sources/${id}/test`);
    expect([tested.status, tested.body]).toEqual([
      200,
      { data_source_id: id, result: 'ok', checks: { read: true, write: true }, message: null, error_id: null },
    ]);
    // The same bucket twice is a conflict (whatever the name, or none); a name is optional.
    const again = await api('POST', '/files/v1/data-sources', { body: s3Source({ name: undefined }) });
    expect([again.status, again.body.error, again.body.error_info.data_source_id]).toEqual([409, 'conflict', id]);
    const unnamed = await api('POST', '/files/v1/data-sources', { body: s3Source({ name: undefined, bucket: 'papers-unnamed' }) });
    expect(unnamed.status, JSON.stringify(unnamed.body)).toBe(200);
    const unnamedEntry = (await api('GET', '/files/v1/data-sources')).body.data_sources.find(
      (d: { data_source_id: string }) => d.data_source_id === unnamed.body.data_source_id,
    );
    expect(unnamedEntry.name).toBe('papers-unnamed');
    const bucket = new S3Storage({ bucket: 'papers', endpoint: s3.endpoint, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });
    const left = [];
    for await (const o of bucket.list({ prefix: '' })) left.push(o.key);
    expect(left.filter((k) => k.startsWith('.folio-probe'))).toEqual([]);
  });

  it('answers a failed probe, never an error status, for a refused key id, a missing bucket and a role without AWS credentials', async () => {
    // s3rver checks the access key id but not the SigV4 secret, so the refused credential is the id.
    const wrongKey = await api('POST', '/files/v1/data-sources', {
      body: s3Source({ bucket: 'papers-denied', provider_specific_details: { access_key_id: 'NOTAKEY' } }),
    });
    const denied = await api('POST', `/files/v1/data-sources/${wrongKey.body.data_source_id}/test`);
    expect([denied.status, denied.body.result, denied.body.checks, denied.body.error_id]).toEqual([
      200,
      'failed',
      { read: false, write: false },
      'data_source_access_denied',
    ]);
    expect(denied.body.message).toMatch(/InvalidAccessKeyId/);
    const missing = await api('POST', '/files/v1/data-sources', { body: s3Source({ bucket: 'no-such-bucket' }) });
    const gone = await api('POST', `/files/v1/data-sources/${missing.body.data_source_id}/test`);
    expect([gone.status, gone.body.result, gone.body.error_id]).toEqual([200, 'failed', 'data_source_access_denied']);
    // The appliance has no AWS identity of its own here: the role cannot be assumed, and the probe says so.
    const externalId = (await api('GET', '/files/v1/onboarding/identities')).body.aws.external_id;
    const role = await api('POST', '/files/v1/data-sources', {
      body: {
        provider: 'aws',
        auth_method: 'iam_role',
        bucket: 'role-probe',
        provider_specific_details: { iam_role_arn: 'arn:aws:iam::123456789012:role/folio-reader', aws_external_id: externalId },
      },
    });
    expect(role.status, JSON.stringify(role.body)).toBe(200);
    const probe = await api('POST', `/files/v1/data-sources/${role.body.data_source_id}/test`);
    expect([probe.status, probe.body.result, probe.body.checks]).toEqual([200, 'failed', { read: false, write: false }]);
    expect(probe.body.message).toEqual(expect.any(String));
  });

  it('verifies an Azure container on Azurite with the emulator key', async () => {
    const created = await api('POST', '/files/v1/data-sources', { body: azureSource() });
    expect(created.status).toBe(200);
    const tested = await api('POST', `/files/v1/data-sources/${created.body.data_source_id}/test`);
    expect([tested.status, tested.body.result, tested.body.checks, tested.body.message]).toEqual([200, 'ok', { read: true, write: true }, null]);
  });

  it('registers a gcp source only when .service-verify holds the group external_id', async () => {
    const externalId = (await api('GET', '/files/v1/onboarding/identities')).body.gcp.external_id;
    const body = {
      name: 'gcs',
      provider: 'gcp',
      auth_method: 'service_account',
      bucket: 'gcs-papers',
      provider_specific_details: { gcp_project_id: 'acme-docs', target_sa_email: 'reader@acme-docs.iam.gserviceaccount.com' },
    };
    const bucket = new GcsStorage({ bucket: 'gcs-papers', endpoint: gcs.endpoint });
    const absent = await api('POST', '/files/v1/data-sources', { body });
    expect([absent.status, absent.body.error]).toEqual([403, 'data_source_access_denied']);
    await bucket.write('.service-verify', 'somebody-else');
    expect((await api('POST', '/files/v1/data-sources', { body })).body.error).toBe('data_source_access_denied');
    await bucket.write('.service-verify', `${externalId}\n`);
    const created = await api('POST', '/files/v1/data-sources', { body });
    expect(created.status).toBe(200);
    const tested = await api('POST', `/files/v1/data-sources/${created.body.data_source_id}/test`);
    expect([tested.status, tested.body.checks.write]).toEqual([200, true]);
  });

  it('accepts an aws iam_role only with the group external_id', async () => {
    const externalId = (await api('GET', '/files/v1/onboarding/identities')).body.aws.external_id;
    const role = (aws_external_id: string) => ({
      name: 'role',
      provider: 'aws',
      auth_method: 'iam_role',
      bucket: 'role-papers',
      provider_specific_details: { iam_role_arn: 'arn:aws:iam::123456789012:role/folio-reader', aws_external_id },
    });
    const wrong = await api('POST', '/files/v1/data-sources', { body: role('0123456789abcdef0123456789abcdef') });
    expect([wrong.status, wrong.body.error]).toEqual([403, 'data_source_access_denied']);
    expect((await api('POST', '/files/v1/data-sources', { body: role(externalId) })).status).toBe(200);
  });

  it('answers 400 bad_request for each malformed registration', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['name', s3Source({ name: 'x'.repeat(129) })],
      ['provider', s3Source({ provider: 'ibm' })],
      ['auth_method', s3Source({ auth_method: 'azure_ad' })],
      ['bucket', s3Source({ bucket: 'Bad_Bucket' })],
      ['region', s3Source({ region: undefined })],
      ['provider_specific_details.access_key_id', s3Source({ provider_specific_details: {} })],
      ['provider_specific_details.extra', s3Source({ provider_specific_details: { access_key_id: 'S3RVER', extra: 'x' } })],
      ['secret', s3Source({ secret: undefined })],
      ['secret', azureSource({ secret: 'account-key' })],
      ['endpoint', s3Source({ endpoint: s3.endpoint })],
      ['endpoint', s3Source({ endpoint: 'ftp://s3.example.com' })],
      ['endpoint', s3Source({ endpoint: `${s3Endpoint()}/prefix` })],
      ['endpoint', s3Source({ endpoint: 'http://[::1]:9000' })],
    ];
    for (const [field, body] of cases) {
      const res = await api('POST', '/files/v1/data-sources', { body });
      expect([res.status, res.body.error, res.body.error_info.field], field).toEqual([400, 'bad_request', field]);
    }
    const gcpEndpoint = await api('POST', '/files/v1/data-sources', {
      body: {
        name: 'g',
        provider: 'gcp',
        auth_method: 'service_account',
        bucket: 'gcs-papers',
        endpoint: 'https://storage.example.com',
        provider_specific_details: { gcp_project_id: 'acme-docs', target_sa_email: 'a@b.iam.gserviceaccount.com' },
      },
    });
    expect([gcpEndpoint.status, gcpEndpoint.body.error_info.field]).toEqual([400, 'endpoint']);
    expect((await api('POST', '/files/v1/data-sources', { body: 'not json' })).body.error).toBe('bad_request');
  });

  it('shares sources within a group and keeps them from other groups', async () => {
    const id = (await api('POST', '/files/v1/data-sources', { body: s3Source({ name: 'shared', bucket: 'shared-papers' }) })).body.data_source_id;
    const sameGroup = await api('GET', '/files/v1/data-sources', { key: keyA2 });
    expect(sameGroup.body.data_sources.map((d: { data_source_id: string }) => d.data_source_id)).toContain(id);
    expect((await api('POST', `/files/v1/data-sources/${id}/test`, { key: keyA2 })).status).toBe(200);
    expect((await api('GET', '/files/v1/data-sources', { key: keyB })).body.data_sources).toEqual([]);
    for (const [method, path] of [
      ['POST', `/files/v1/data-sources/${id}/test`],
      ['DELETE', `/files/v1/data-sources/${id}`],
    ] as const) {
      const res = await api(method, path, { key: keyB });
      expect([res.status, res.body.error], `${method} ${path}`).toEqual([403, 'forbidden']);
    }
    const unknown = await api('POST', '/files/v1/data-sources/ds_000000000000000000000000/test');
    expect([unknown.status, unknown.body.error]).toEqual([404, 'not_found']);
  });

  it('deletes a source: gone from the list, then 404 not_found, and the bucket may be registered again', async () => {
    const id = (await api('POST', '/files/v1/data-sources', { body: s3Source({ name: 'doomed', bucket: 'doomed-papers' }) })).body.data_source_id;
    expect((await api('DELETE', `/files/v1/data-sources/${id}`)).body).toEqual({ data_source_id: id, status: 'deleted' });
    const list = await api('GET', '/files/v1/data-sources');
    expect(list.body.data_sources.map((d: { data_source_id: string }) => d.data_source_id)).not.toContain(id);
    for (const [method, path] of [
      ['DELETE', `/files/v1/data-sources/${id}`],
      ['POST', `/files/v1/data-sources/${id}/test`],
    ] as const) {
      const res = await api(method, path);
      expect([res.status, res.body.error]).toEqual([404, 'not_found']);
    }
    expect((await api('POST', '/files/v1/data-sources', { body: s3Source({ name: 'reborn', bucket: 'doomed-papers' }) })).status).toBe(200);
  });

  describe('openDataSourceUri (the documents pipeline side)', () => {
    // The appliance's own ledger, read in this process as a worker on the same host would.
    const ctx = () => ({
      // The key as ctx.config will carry it once core/config.ts parses FOLIO_DATA_SOURCE_KEY.
      config: { ...loadConfig({ FOLIO_ALLOW_PRIVATE_URLS: 'true' }), FOLIO_DATA_SOURCE_KEY: DATA_SOURCE_KEY },
      db: new Database(join(app.dataDir, 'folio.sqlite')),
      storageSettings: { azureEmulator: true, azureAccountKey: azurite.accountKey, gcsEndpoint: gcs.endpoint },
      now: Date.now,
    });

    it('opens s3 and Azure emulator URIs through the group source and reads the real objects', async () => {
      await new S3Storage({ bucket: 'papers', endpoint: s3.endpoint, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }).write(
        'in/a.txt',
        's3 object',
      );
      await new AzureStorage({ accountUrl: azurite.accountUrl, container: 'scans', accountKey: azurite.accountKey }).write('in/b.txt', 'blob object');
      const c = ctx();
      const s3Open = await openDataSourceUri(c, 'group-a', 's3://papers/in/a.txt');
      expect(s3Open.key).toBe('in/a.txt');
      expect((await s3Open.storage.readBuffer(s3Open.key)).toString()).toBe('s3 object');
      const azOpen = await openDataSourceUri(c, 'group-a', `${azureEndpoint()}/${AZURITE_ACCOUNT}/scans/in/b.txt`);
      expect((await azOpen.storage.readBuffer(azOpen.key)).toString()).toBe('blob object');
      c.db.close();
    });

    it('throws data_source_not_found for another group and for an uncovered bucket or account', async () => {
      const c = ctx();
      for (const [group, uri] of [
        ['group-b', 's3://papers/in/a.txt'],
        ['group-a', 's3://elsewhere/in/a.txt'],
        ['group-a', `${azureEndpoint()}/otheraccount/scans/b.txt`],
        ['group-a', `${azurite.accountUrl}/scans/in/b.txt`],
      ]) {
        const err = await openDataSourceUri(c, group!, uri!).then(
          () => null,
          (e: unknown) => e,
        );
        expect(err, uri).toBeInstanceOf(ApiError);
        expect((err as ApiError).id, uri).toBe('data_source_not_found');
      }
      c.db.close();
    });
  });
});

describe('Files API data sources: a refused Azure key', () => {
  let azurite: TestAzurite;
  let app: ApplianceProcess;

  beforeAll(async () => {
    azurite = await startAzurite();
    await azurite.createContainer('scans');
    // Azurite checks Shared Key signatures for real: a wrong emulator key is refused like a revoked grant.
    app = await spawnAppliance(labEnv({ FOLIO_AZURE_ACCOUNT_KEY: randomBytes(64).toString('base64') }), { waitHealthy: false });
  }, 90_000);
  afterAll(async () => {
    await app?.stop();
    await azurite?.stop();
  });

  it('answers a failed probe with data_source_access_denied from the test route', async () => {
    const key = await newKey(app.url, 'gamma', 'group-c');
    const created = await call(app.url, 'POST', '/files/v1/data-sources', {
      key,
      body: {
        name: 'scans',
        provider: 'azure',
        auth_method: 'azure_ad',
        bucket: 'scans',
        endpoint: new URL(azurite.accountUrl).origin.replace('127.0.0.1', 'localhost'),
        provider_specific_details: { azure_tenant_id: '72f988bf-86f1-41af-91ab-2d7cd011db47', storage_account: AZURITE_ACCOUNT },
      },
    });
    const tested = await call(app.url, 'POST', `/files/v1/data-sources/${created.body.data_source_id}/test`, { key });
    expect([tested.status, tested.body.result, tested.body.error_id]).toEqual([200, 'failed', 'data_source_access_denied']);
    expect(tested.body.message).toMatch(/AuthorizationFailure|authenticate/);
  });
});
