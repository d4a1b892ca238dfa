import { defaultProvider } from '@aws-sdk/credential-provider-node';
// STS as the AWS SDK's own credential providers use it; @aws-sdk/client-sts is not a dependency yet.
import { AssumeRoleCommand, STSClient } from '@aws-sdk/nested-clients/sts';
import type { AwsCredentialIdentityProvider } from '@aws-sdk/types';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { ApiError } from '../../../core/errors.js';
import type { Resolver } from '../../../core/ssrf.js';
import { AzureStorage } from '../../../core/storage/azure.js';
import { GcsStorage } from '../../../core/storage/gcs.js';
import { S3Storage } from '../../../core/storage/s3.js';
import { type Storage, StorageError, type StorageSettings } from '../../../core/storage/index.js';
import { checkEndpoint, guardedAgents } from './endpoint.js';
import type { DataSource } from './store.js';

export interface ConnectOptions {
  settings: StorageSettings;
  /** Lab mode (FOLIO_ALLOW_PRIVATE_URLS): custom endpoints may resolve to private addresses. */
  allowPrivate: boolean;
  resolve?: Resolver;
}

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
    storage = build(source, secret, opts);
    open.set(source.data_source_id, storage);
  }
  return storage;
}

function build(source: DataSource, secret: string | null, opts: ConnectOptions): Storage {
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
        return new AzureStorage({ accountUrl: `${source.endpoint}/${details.storage_account}`, container: source.bucket, accountKey: opts.settings.azureAccountKey, maxAttempts: 2 });
      }
      throw keylessUnavailable(source);
    case 'gcp':
      // The emulator (FOLIO_GCS_ENDPOINT) takes no credentials; the .service-verify check still runs.
      if (opts.settings.gcsEndpoint) return new GcsStorage({ bucket: source.bucket, endpoint: opts.settings.gcsEndpoint, maxAttempts: 1 });
      throw keylessUnavailable(source);
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
 * core/storage's Azure and GCS adapters accept only a shared key or no credentials; the azure_ad
 * token credential and the GCP impersonated client need an option there (see docs/files-data-sources.md).
 */
function keylessUnavailable(source: DataSource): ApiError {
  return new ApiError(
    'data_source_access_denied',
    `${source.provider}/${source.auth_method} grants cannot be exercised by this build: the storage adapter takes no ${source.provider === 'azure' ? 'token credential' : 'impersonated client'}`,
    { data_source_id: source.data_source_id },
  );
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
