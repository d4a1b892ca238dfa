import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import type { AwsCredentialIdentityProvider } from '@aws-sdk/types';
import type { TokenCredential } from '@azure/core-auth';
import { DefaultAzureCredential } from '@azure/identity';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { type AuthClient, GoogleAuth, Impersonated } from 'google-auth-library';
import { ApiError } from '../../../core/errors.js';
import type { Resolver } from '../../../core/ssrf.js';
import { AzureStorage } from '../../../core/storage/azure.js';
import { GcsStorage } from '../../../core/storage/gcs.js';
import { S3Storage } from '../../../core/storage/s3.js';
import { type Storage, StorageError, type StorageSettings } from '../../../core/storage/index.js';
import { checkEndpoint, guardedAgents } from './endpoint.js';
import type { DataSource } from './store.js';

/** How the service's own identity becomes a customer's keyless grant, one function per provider. */
export interface KeylessGrants {
  /** azure_ad: a token credential of the service's identity in the customer's Microsoft Entra tenant. */
  azure(tenantId: string): TokenCredential;
  /** service_account: a client of the service's identity impersonating the customer's service account. */
  gcp(targetPrincipal: string): Promise<AuthClient>;
}

export interface ConnectOptions {
  settings: StorageSettings;
  /** Lab mode (FOLIO_ALLOW_PRIVATE_URLS): custom endpoints may resolve to private addresses. */
  allowPrivate: boolean;
  resolve?: Resolver;
  /** @default defaultKeylessGrants: each SDK's standard credential chain */
  grants?: KeylessGrants;
}

const GCS_SCOPE = 'https://www.googleapis.com/auth/devstorage.read_write';
const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

// The service's own Google identity (Application Default Credentials), found once per process.
let googleIdentity: Promise<AuthClient> | undefined;
function serviceGoogleIdentity(): Promise<AuthClient> {
  googleIdentity ??= new GoogleAuth({ scopes: [CLOUD_PLATFORM_SCOPE] }).getClient().catch((err: unknown) => {
    googleIdentity = undefined; // not cached: the operator may fix the environment without a restart
    throw err;
  });
  return googleIdentity;
}

/**
 * The real grants. Both chains look for the service's identity in the environment, and on a cloud
 * machine at its link-local metadata address: never call them where no cloud identity exists
 * (tests pass fakes through ConnectOptions.grants).
 * - azure: DefaultAzureCredential (environment client secret or certificate, workload identity,
 *   managed identity, Azure CLI...) asked for tokens of the customer's tenant.
 * - gcp: Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, workload identity, the
 *   metadata server) impersonating the customer's service account for one-hour tokens.
 */
export const defaultKeylessGrants: KeylessGrants = {
  // tenantId steers the workload-identity credential; an environment (client secret or certificate)
  // credential keeps its home tenant (AZURE_TENANT_ID), gets the storage's 401 challenge naming the
  // customer's tenant, and may then ask there only because that tenant is allowed here.
  azure: (tenantId) => new DefaultAzureCredential({ tenantId, additionallyAllowedTenants: [tenantId] }),
  gcp: async (targetPrincipal) =>
    new Impersonated({ sourceClient: await serviceGoogleIdentity(), targetPrincipal, targetScopes: [GCS_SCOPE], delegates: [], lifetime: 3600 }),
};

// A data source never changes after registration, so its client (and connection pool) is reused.
const open = new Map<string, Storage>();

/** Forgets the client of a deleted source. */
export function forgetConnection(dataSourceId: string): void {
  open.delete(dataSourceId);
}

/**
 * The Storage of a registered source, connected with its own grant — never with the credentials
 * of Folio's own store. `secret` is the opened access_key secret (null for keyless methods).
 * A custom endpoint is checked again here and pinned per connection by guardedLookup.
 */
export async function connectDataSource(source: DataSource, secret: string | null, opts: ConnectOptions): Promise<Storage> {
  if (source.endpoint) await checkEndpoint(source.endpoint, opts);
  let storage = open.get(source.data_source_id);
  if (!storage) {
    storage = await build(source, secret, opts);
    open.set(source.data_source_id, storage);
  }
  return storage;
}

async function build(source: DataSource, secret: string | null, opts: ConnectOptions): Promise<Storage> {
  const grants = opts.grants ?? defaultKeylessGrants;
  const details = source.provider_specific_details;
  switch (source.provider) {
    case 'aws': {
      const s3 = new S3Storage({
        bucket: source.bucket,
        endpoint: source.endpoint ?? undefined,
        region: source.region ?? 'us-east-1',
        ...(source.auth_method === 'access_key' ? { accessKeyId: details.access_key_id, secretAccessKey: secret ?? undefined } : {}),
        maxAttempts: 2,
      });
      // S3Storage takes neither agents nor a credential provider; the SDK client's resolved config
      // accepts both after construction (a request handler, and the credentials setter).
      if (source.endpoint) {
        const { httpAgent, httpsAgent } = guardedAgents(opts);
        // The same bounded waits as S3Storage's own handler.
        s3.client.config.requestHandler = new NodeHttpHandler({ httpAgent, httpsAgent, connectionTimeout: 10_000, requestTimeout: 120_000 });
      }
      if (source.auth_method === 'iam_role') s3.client.config.credentials = assumeRole(source);
      return s3;
    }
    case 'azure':
      // The emulator has no directory to grant a role in: in the lab, the operator's emulator
      // account key (FOLIO_AZURE_ACCOUNT_KEY) stands in for the azure_ad assignment.
      if (opts.settings.azureEmulator && source.endpoint) {
        return new AzureStorage({
          accountUrl: `${source.endpoint}/${details.storage_account}`,
          container: source.bucket,
          accountKey: opts.settings.azureAccountKey,
          maxAttempts: 2,
        });
      }
      return new AzureStorage({
        accountUrl: source.endpoint ?? `https://${details.storage_account}.blob.core.windows.net`,
        container: source.bucket,
        credential: await keyless(source, () => grants.azure(details.azure_tenant_id)),
        // Blob requests resolve through the SSRF guard like custom S3 endpoints; token requests do not
        // go through these agents (they are the identity library's, to Entra ID or the metadata address).
        agents: guardedAgents(opts),
        maxAttempts: 2,
      });
    case 'gcp':
      // The emulator (FOLIO_GCS_ENDPOINT) takes no credentials; the .service-verify check still runs.
      if (opts.settings.gcsEndpoint) return new GcsStorage({ bucket: source.bucket, endpoint: opts.settings.gcsEndpoint, maxAttempts: 1 });
      return new GcsStorage({
        bucket: source.bucket,
        projectId: details.gcp_project_id,
        authClient: await keyless(source, () => grants.gcp(details.target_sa_email)),
        maxAttempts: 2,
      });
  }
}

/**
 * The aws iam_role grant: the service's own identity from the SDK's standard chain (environment,
 * shared config, web identity, instance or task role) assumes the customer's role with the
 * group's external id. The SDK memoizes the result and refreshes it before it expires.
 */
function assumeRole(source: DataSource): AwsCredentialIdentityProvider {
  const sts = new STSClient({ region: source.region ?? 'us-east-1', credentials: defaultProvider() });
  const { iam_role_arn: roleArn, aws_external_id: externalId } = source.provider_specific_details;
  return async () => {
    const { Credentials: c } = await sts.send(
      new AssumeRoleCommand({ RoleArn: roleArn, ExternalId: externalId, RoleSessionName: `folio-${source.data_source_id}`, DurationSeconds: 3600 }),
    );
    if (!c?.AccessKeyId || !c.SecretAccessKey) throw new StorageError('access_denied', `AssumeRole ${roleArn} returned no credentials`);
    return { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken, expiration: c.Expiration };
  };
}

/**
 * Makes a keyless grant's credential; when the service has no identity to make it from (no
 * environment credentials, not on a cloud machine), the source answers 403 data_source_access_denied
 * saying so, since nothing the customer does can help before the operator fixes the environment.
 */
async function keyless<T>(source: DataSource, make: () => T | Promise<T>): Promise<T> {
  try {
    return await make();
  } catch (err) {
    throw new ApiError(
      'data_source_access_denied',
      `${source.provider}/${source.auth_method}: the service has no ${source.provider === 'azure' ? 'Microsoft Entra' : 'Google'} identity to use the grant with: ${(err as Error).message}`,
      { data_source_id: source.data_source_id },
    );
  }
}

/** Maps a storage failure met while using a source onto the spec's ids; other errors pass through. */
export function dataSourceError(err: unknown, source: DataSource): unknown {
  if (!(err instanceof StorageError)) return err;
  const extras = { data_source_id: source.data_source_id };
  switch (err.kind) {
    case 'throttled':
      return new ApiError('storage_throttled', err.message, extras, true);
    case 'not_found':
      return new ApiError('data_source_access_denied', `${source.bucket} does not exist or is not visible to the grant: ${err.message}`, extras);
    case 'unreachable':
      return new ApiError('data_source_access_denied', `storage could not be reached: ${err.message}`, extras, true);
    case 'access_denied':
      return new ApiError('data_source_access_denied', err.message, extras);
  }
}
