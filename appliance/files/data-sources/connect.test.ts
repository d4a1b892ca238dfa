import type { AccessToken, TokenCredential } from '@azure/core-auth';
import { AuthClient } from 'google-auth-library';
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../core/errors.js';
import type { Resolver } from '../../../core/ssrf.js';
import { AzureStorage } from '../../../core/storage/azure.js';
import { GcsStorage } from '../../../core/storage/gcs.js';
import { connectDataSource, dataSourceError, forgetConnection, type KeylessGrants } from './connect.js';
import type { DataSource } from './store.js';

// No Microsoft Entra ID or Google IAM can be reached from here, and the real grants
// (DefaultAzureCredential, Application Default Credentials) probe the link-local metadata
// address: these tests pass fake grants and check what connect builds with them. No token is
// ever requested from a real service; no socket leaves the process (see beforeEach).

const TENANT = '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0';
const SA = 'reader@acme-docs.iam.gserviceaccount.com';

function source(over: Partial<DataSource>): DataSource {
  return {
    data_source_id: `ds_${Math.random().toString(16).slice(2)}`,
    group_id: 'g',
    name: 'n',
    provider: 'azure',
    auth_method: 'azure_ad',
    bucket: 'scans',
    region: null,
    endpoint: null,
    provider_specific_details: { azure_tenant_id: TENANT, storage_account: 'acmedocs' },
    sealed_secret: null,
    created_by_app_id: 'app',
    created_at: '',
    ...over,
  };
}

const gcpSource = () =>
  source({
    provider: 'gcp',
    auth_method: 'service_account',
    bucket: 'gcs-papers',
    provider_specific_details: { gcp_project_id: 'acme-docs', target_sa_email: SA },
  });

/** Fake grants recording what connect asked for; the Azure one hands out a fixed token, the GCP one fails every impersonation. */
function fakeGrants() {
  const calls = { azure: [] as string[], gcp: [] as string[], scopes: [] as string[], signed: [] as (string | undefined)[] };
  class FailingImpersonation extends AuthClient {
    async getRequestHeaders(url?: string): Promise<Record<string, string>> {
      calls.signed.push(url);
      throw new Error('unable to impersonate: no IAM in this test');
    }
    async getAccessToken(): Promise<{ token: string }> {
      throw new Error('not used');
    }
    async request(): Promise<never> {
      throw new Error('not used');
    }
  }
  const grants: KeylessGrants = {
    azure: (tenantId) => {
      calls.azure.push(tenantId);
      const credential: TokenCredential = {
        getToken: async (scope): Promise<AccessToken> => {
          calls.scopes.push(...[scope].flat());
          return { token: 'fake', expiresOnTimestamp: Date.now() + 3_600_000 };
        },
      };
      return credential;
    },
    gcp: async (targetPrincipal) => {
      calls.gcp.push(targetPrincipal);
      return new FailingImpersonation() as unknown as AuthClient;
    },
  };
  return { grants, calls };
}

describe('connectDataSource with keyless grants', () => {
  const original = net.Socket.prototype.connect;
  let strays = 0;
  const used: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    for (const id of used.splice(0)) forgetConnection(id);
  });
  beforeEach(() => {
    strays = 0;
    // Sockets must resolve through the SSRF guard's lookup; one that would use the system resolver
    // (or dial an address such as the metadata one directly) is stopped.
    vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket, ...args: unknown[]) {
      const opts = (Array.isArray(args[0]) ? args[0][0] : args[0]) as { lookup?: unknown } | undefined;
      if (typeof opts?.lookup === 'function') return original.apply(this, args as never);
      strays++;
      throw new Error('a socket without the guarded lookup tried to connect');
    });
  });
  const connect = (s: DataSource, opts: Partial<Parameters<typeof connectDataSource>[2]> = {}) => {
    used.push(s.data_source_id);
    return connectDataSource(s, null, { settings: {}, allowPrivate: false, ...opts });
  };

  it('connects azure_ad to the account endpoint with a credential for the source tenant, through the SSRF guard', async () => {
    const { grants, calls } = fakeGrants();
    const looked: string[] = [];
    // The account name resolves inside: the guard must refuse it at connection time.
    const resolve: Resolver = async (host) => (looked.push(host), ['10.1.2.3']);
    const storage = await connect(source({}), { grants, resolve });
    expect(storage).toBeInstanceOf(AzureStorage);
    expect(storage.rootUri).toBe('https://acmedocs.blob.core.windows.net/scans/');
    expect(calls.azure).toEqual([TENANT]);
    // The SDK's retry waits seconds after the refusal: the first attempt tells all there is to know.
    void storage.ping().catch(() => undefined);
    await vi.waitFor(() => expect(looked).toContain('acmedocs.blob.core.windows.net'), { timeout: 5000 });
    expect(calls.scopes).toEqual(['https://storage.azure.com/.default']);
    expect(strays).toBe(0);
  });

  it('connects gcp service_account through an impersonation of the target service account', async () => {
    const { grants, calls } = fakeGrants();
    const s = gcpSource();
    const storage = await connect(s, { grants });
    expect(storage).toBeInstanceOf(GcsStorage);
    expect(storage.rootUri).toBe('gs://gcs-papers/');
    expect(calls.gcp).toEqual([SA]);
    const err = await storage.readBuffer('.service-verify').catch((e: unknown) => dataSourceError(e, s));
    expect(err).toMatchObject({ id: 'data_source_access_denied', extras: { data_source_id: s.data_source_id } });
    expect(calls.signed).toHaveLength(1);
    expect(calls.signed[0]).toContain('/b/gcs-papers/o/.service-verify');
    expect(strays).toBe(0);
  });

  it('answers data_source_access_denied when the service has no identity to make the grant from', async () => {
    const grants: KeylessGrants = {
      azure: () => {
        throw new Error('no environment credentials');
      },
      gcp: async () => {
        throw new Error('Could not load the default credentials');
      },
    };
    for (const s of [source({}), gcpSource()]) {
      const err = await connect(s, { grants }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ id: 'data_source_access_denied', extras: { data_source_id: s.data_source_id } });
      expect((err as Error).message).toMatch(/no (Microsoft Entra|Google) identity/);
    }
  });

  it('keeps the emulator paths: Azurite with the operator key, the GCS emulator without credentials', async () => {
    const { grants, calls } = fakeGrants();
    const lab = { allowPrivate: true, resolve: (async () => ['127.0.0.1']) as Resolver };
    const azurite = await connect(source({ endpoint: 'http://azurite.example:10000' }), {
      ...lab,
      grants,
      settings: { azureEmulator: true, azureAccountKey: Buffer.from('k').toString('base64') },
    });
    expect(azurite.rootUri).toBe('http://azurite.example:10000/acmedocs/scans/');
    const gcs = await connect(gcpSource(), { grants, settings: { gcsEndpoint: 'http://gcs.example:4443' } });
    expect(gcs.rootUri).toBe('gs://gcs-papers/');
    expect(calls).toMatchObject({ azure: [], gcp: [] });
  });
});
