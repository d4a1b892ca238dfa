import type { AccessToken, TokenCredential } from '@azure/core-auth';
import { AuthClient } from 'google-auth-library';
import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AzureStorage } from './azure.js';
import { GcsStorage } from './gcs.js';
import { StorageError } from './storage.js';

// There is no Microsoft Entra ID or Google IAM to reach from here, and @azure/identity's and
// google-auth-library's default chains probe the link-local metadata address: these tests hand the
// adapters fake credentials and stop every request before it leaves the process.

const asked: string[] = [];
/** A socket lookup that records the names asked for and resolves none of them. */
const refuse = ((hostname: string, _opts: unknown, callback: (err: Error) => void) => {
  asked.push(hostname);
  callback(Object.assign(new Error(`${hostname}: refused by the test`), { code: 'EHOSTUNREACH' }));
}) as unknown as LookupFunction;
const agents = { httpAgent: new http.Agent({ lookup: refuse }), httpsAgent: new https.Agent({ lookup: refuse }) };

describe('storage adapters with keyless credentials', () => {
  const original = net.Socket.prototype.connect;
  let strays = 0;
  beforeEach(() => {
    asked.length = 0;
    strays = 0;
    // A socket that does not resolve through `refuse` is stopped before it resolves or connects.
    vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket, ...args: unknown[]) {
      const opts = (Array.isArray(args[0]) ? args[0][0] : args[0]) as { lookup?: unknown } | undefined;
      if (opts?.lookup === refuse) return original.apply(this, args as never);
      strays++;
      throw new Error('a socket outside the test agents tried to connect');
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('signs Azure blob requests with the token credential and sends them through the given agents', async () => {
    const scopes: string[][] = [];
    const credential: TokenCredential = {
      getToken: async (scope): Promise<AccessToken> => {
        scopes.push([scope].flat());
        return { token: 'fake-token', expiresOnTimestamp: Date.now() + 3_600_000 };
      },
    };
    const storage = new AzureStorage({ accountUrl: 'https://acct.blob.core.windows.net', container: 'docs', credential, agents, maxAttempts: 1 });
    expect(storage.rootUri).toBe('https://acct.blob.core.windows.net/docs/');
    const err = await storage.ping().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect((err as StorageError).kind).toBe('unreachable');
    expect(scopes).toEqual([['https://storage.azure.com/.default']]);
    expect(asked).toEqual(['acct.blob.core.windows.net']);
    expect(strays).toBe(0);
  });

  it('maps an Azure token failure to access_denied', async () => {
    const credential: TokenCredential = {
      getToken: async () => {
        throw Object.assign(new Error('no managed identity endpoint'), { name: 'CredentialUnavailableError' });
      },
    };
    const storage = new AzureStorage({ accountUrl: 'https://acct.blob.core.windows.net', container: 'docs', credential, agents, maxAttempts: 1 });
    const err = await storage.head('a.pdf').catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'access_denied' });
    expect(asked).toEqual([]);
  });

  it('passes the auth client to Google Cloud Storage and maps a failed impersonation to access_denied', async () => {
    const urls: (string | undefined)[] = [];
    class FakeImpersonated extends AuthClient {
      async getRequestHeaders(url?: string): Promise<Record<string, string>> {
        urls.push(url);
        throw new Error('unable to impersonate: the test has no IAM');
      }
      async getAccessToken(): Promise<{ token: string }> {
        throw new Error('not called');
      }
      async request(): Promise<never> {
        throw new Error('not called');
      }
    }
    const storage = new GcsStorage({
      bucket: 'customer-bucket',
      authClient: new FakeImpersonated() as unknown as AuthClient,
      projectId: 'customer-project',
      maxAttempts: 1,
    });
    expect(storage.rootUri).toBe('gs://customer-bucket/');
    const err = await storage.readBuffer('in/a.pdf').catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'access_denied' });
    expect(urls).toHaveLength(1);
    expect(urls[0]).toContain('/b/customer-bucket/o/in%2Fa.pdf');
    expect(strays).toBe(0);
  });
});
