import { ApiError } from '../../../core/errors.js';
import type { Resolver } from '../../../core/ssrf.js';
import { type Location, type Storage, parseLocation } from '../../../core/storage/index.js';
import type { AppContext } from '../../context.js';
import { connectDataSource, dataSourceError, forgetConnection } from './connect.js';
import { checkEndpoint } from './endpoint.js';
import { GrantedStorage } from './granted-storage.js';
import { type OnboardingIdentities, onboardingIdentities } from './identities.js';
import { type ProbeResult, failedProbe, probeDataSource, verifyGcpOwnership } from './probe.js';
import { parseRegistration } from './registration.js';
import { dataSourceKey, SecretBox } from './secret-box.js';
import { type DataSource, DataSourceStore, type Provider } from './store.js';

export type { DataSource, DataSourceView } from './store.js';
export type { ProbeResult } from './probe.js';
export { viewOf } from './store.js';

/** What data sources need of the appliance (a full AppContext fits). */
export type DataSourceContext = Pick<AppContext, 'config' | 'db' | 'storageSettings' | 'now'>;

export interface DataSourceOptions {
  /** DNS for endpoint checks; tests inject one. @default dns.lookup */
  resolve?: Resolver;
}

/**
 * The Files API's data sources (spec 2.11, 4.11) for one appliance: onboarding identities,
 * registration, listing, deletion, the access test, and opening a source URI for the documents
 * pipeline. Sources belong to a group and are shared by every key of its apps.
 */
export class DataSources {
  private readonly store: DataSourceStore;
  private readonly box: SecretBox;

  constructor(
    private readonly ctx: DataSourceContext,
    private readonly opts: DataSourceOptions = {},
  ) {
    this.store = new DataSourceStore(ctx.db, ctx.now);
    this.box = new SecretBox(dataSourceKey(ctx.config).key);
  }

  identities(groupId: string): OnboardingIdentities {
    return onboardingIdentities(this.ctx.config, this.store.externalId(groupId));
  }

  /** Validates, checks the grant where registration must (aws external id, gcp .service-verify), stores. */
  async register(groupId: string, appId: string, body: Record<string, unknown> | undefined): Promise<DataSource> {
    const reg = parseRegistration(body, { azureEmulator: this.ctx.storageSettings.azureEmulator });
    const endpoint = reg.endpoint === null ? null : await checkEndpoint(reg.endpoint, this.policy());
    const externalId = this.store.externalId(groupId);
    const id = this.store.newId();
    const source: Omit<DataSource, 'created_at'> = {
      data_source_id: id,
      group_id: groupId,
      name: reg.name,
      provider: reg.provider,
      auth_method: reg.auth_method,
      bucket: reg.bucket,
      region: reg.region,
      endpoint,
      provider_specific_details: reg.provider_specific_details,
      sealed_secret: reg.secret === null ? null : this.box.seal(reg.secret, id),
      created_by_app_id: appId,
    };
    if (reg.auth_method === 'iam_role' && reg.provider_specific_details.aws_external_id !== externalId) {
      throw new ApiError('data_source_access_denied', "aws_external_id is not this group's external_id (GET /files/v1/onboarding/identities)");
    }
    if (reg.provider === 'gcp') {
      const pending = { ...source, created_at: '' };
      try {
        await verifyGcpOwnership(pending, await this.connect(pending), externalId);
      } finally {
        forgetConnection(id);
      }
    }
    // Checked and inserted in one synchronous stretch: two racing registrations cannot both pass.
    const same = this.store.forBucket(groupId, reg.provider, reg.bucket).find((s) => sameBucket(s, source));
    if (same)
      throw new ApiError(
        'conflict',
        `The ${reg.provider} bucket ${reg.bucket} is already registered as ${same.data_source_id}; delete it to register it again`,
        { data_source_id: same.data_source_id },
      );
    return this.store.insert(source);
  }

  list(groupId: string): DataSource[] {
    return this.store.list(groupId);
  }

  /**
   * The source `id` if the caller's group owns it: 404 not_found for an unknown or deleted id (as
   * for files; data_source_not_found is a bucket without a source), 403 forbidden for another group's.
   */
  owned(groupId: string, id: string): DataSource {
    const source = this.store.get(id);
    if (!source) throw new ApiError('not_found', `No data source ${id}`);
    if (source.group_id !== groupId) throw new ApiError('forbidden', `Data source ${id} belongs to another group`);
    return source;
  }

  remove(groupId: string, id: string): DataSource {
    const source = this.owned(groupId, id);
    this.store.delete(id);
    forgetConnection(id);
    return source;
  }

  /**
   * POST …/test: read and write verified against the real bucket (probe.ts). The outcome is the
   * answer, never an error: a grant the service cannot use at all (no cloud identity configured,
   * a role it may not assume) is a failed probe whose message says why.
   */
  async test(groupId: string, id: string): Promise<ProbeResult> {
    const source = this.owned(groupId, id);
    let storage: Storage;
    try {
      storage = await this.connect(source);
    } catch (err) {
      return failedProbe(source, err);
    }
    return probeDataSource(source, storage);
  }

  /**
   * The Storage and key for an s3://, gs:// or Azure blob URI through the group's registered source
   * for that bucket (the newest when several cover it). 404 data_source_not_found when none does.
   */
  async openUri(groupId: string, uri: string): Promise<{ storage: Storage; key: string }> {
    const location = parseLocation(uri, { azureEmulator: this.ctx.storageSettings.azureEmulator });
    const provider = PROVIDER_OF_SCHEME[location.scheme];
    if (!provider) throw new ApiError('bad_request', `${uri} is not a data-source URI (s3://, gs:// or an Azure blob URL)`);
    const source = this.store.forBucket(groupId, provider, location.bucket).find((s) => covers(s, location));
    if (!source) throw new ApiError('data_source_not_found', `No data source of this group covers the ${provider} bucket ${location.bucket}`);
    return { storage: new GrantedStorage(await this.connect(source), source.data_source_id), key: location.key };
  }

  private policy() {
    return { allowPrivate: this.ctx.config.FOLIO_ALLOW_PRIVATE_URLS, resolve: this.opts.resolve };
  }

  private async connect(source: DataSource): Promise<Storage> {
    const secret = source.sealed_secret === null ? null : this.box.open(source.sealed_secret, source.data_source_id);
    try {
      return await connectDataSource(source, secret, { ...this.policy(), settings: this.ctx.storageSettings });
    } catch (err) {
      throw dataSourceError(err, source);
    }
  }
}

const PROVIDER_OF_SCHEME: Partial<Record<Location['scheme'], Provider>> = { s3: 'aws', gs: 'gcp', azure: 'azure' };

/** One bucket: a provider's bucket name, for azure within one storage account at one endpoint. */
function sameBucket(a: Pick<DataSource, 'provider' | 'endpoint' | 'provider_specific_details'>, b: typeof a): boolean {
  if (a.provider !== 'azure') return true;
  return a.endpoint === b.endpoint && a.provider_specific_details.storage_account === b.provider_specific_details.storage_account;
}

/** Azure sources also name the account; in the emulator the URL's origin must be the registered endpoint. */
function covers(source: DataSource, location: Location): boolean {
  if (source.provider !== 'azure') return true;
  const endpoint = new URL(location.endpoint!);
  const emulated = !endpoint.hostname.endsWith('.blob.core.windows.net');
  const account = emulated ? endpoint.pathname.split('/').filter(Boolean).at(-1) : endpoint.hostname.split('.')[0];
  if (account !== source.provider_specific_details.storage_account) return false;
  return emulated ? source.endpoint === endpoint.origin : source.endpoint === null;
}

/**
 * Opens `uri` (s3://bucket/key, gs://bucket/key, https://<account>.blob.core.windows.net/<container>/<blob>,
 * or the emulator form http://host:port/<account>/<container>/<blob> when FOLIO_AZURE_EMULATOR is on)
 * through the group's registered data source. Throws ApiError data_source_not_found when no source
 * of the group covers it, data_source_access_denied when the grant cannot be used at all; calls on
 * the returned Storage throw data_source_access_denied when the provider refuses (GrantedStorage).
 */
export function openDataSourceUri(
  ctx: DataSourceContext,
  groupId: string,
  uri: string,
  opts: DataSourceOptions = {},
): Promise<{ storage: Storage; key: string }> {
  return new DataSources(ctx, opts).openUri(groupId, uri);
}
