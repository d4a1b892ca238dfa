import { ApiError } from '../../../core/errors.js';
import { type AuthMethod, type DataSource, type Provider, AUTH_METHODS, PROVIDERS } from './store.js';

export const DATA_SOURCE_NAME_MAX = 128;
const SECRET_MAX = 1024;

/** Which auth methods each provider takes, and the provider_specific_details each method needs (spec 4.11). */
export const AUTH_TABLE: Record<Provider, Partial<Record<AuthMethod, Record<string, RegExp>>>> = {
  aws: {
    iam_role: { iam_role_arn: /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/, aws_external_id: /^[\w+=,.@:/-]{2,1224}$/ },
    // Folio's own addition to the table: the key id travels here, its secret in `secret`.
    access_key: { access_key_id: /^\w{1,128}$/ },
  },
  azure: { azure_ad: { azure_tenant_id: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, storage_account: /^[a-z0-9]{3,24}$/ } },
  gcp: { service_account: { gcp_project_id: /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/, target_sa_email: /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i } },
};

// Bucket and container naming rules of each provider, so a typo fails here and not at first use.
const BUCKET_RULES: Record<Provider, RegExp> = {
  aws: /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
  gcp: /^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/,
  azure: /^(?!.*--)[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/,
};
const REGION = /^[a-z0-9-]{1,64}$/;

/**
 * A POST /files/v1/data-sources body that passed every check that needs no network: the fields a
 * stored DataSource gets from the caller, its `endpoint` still to be checked by checkEndpoint, and
 * the secret in the clear (sealed before it is stored).
 */
export type Registration = Omit<DataSource, 'data_source_id' | 'group_id' | 'sealed_secret' | 'created_by_app_id' | 'created_at'> & { secret: string | null };

const bad = (message: string, field: string) => new ApiError('bad_request', message, { field });

function oneOf<T extends string>(value: unknown, allowed: readonly T[], field: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) throw bad(`${field} must be one of ${allowed.join(', ')}`, field);
  return value as T;
}

/**
 * Validates a registration body by spec 4.11 and Folio's rules: name optional (default the bucket) up to 128 characters, the
 * provider/auth_method pairs of the table with exactly their provider_specific_details, region
 * required for access_key, `secret` only (and always) with access_key, `endpoint` for aws only —
 * and for azure only when the operator runs the Azure emulator (`azureEmulator`). Throws 400 bad_request.
 */
export function parseRegistration(body: Record<string, unknown> | undefined, opts: { azureEmulator?: boolean } = {}): Registration {
  if (!body) throw new ApiError('bad_request', 'Body with provider, bucket and auth_method required');
  const { name, bucket, region, endpoint, secret } = body;
  if (name !== undefined && name !== null && (typeof name !== 'string' || !name.trim() || name.length > DATA_SOURCE_NAME_MAX)) {
    throw bad(`name must be a non-empty string of at most ${DATA_SOURCE_NAME_MAX} characters`, 'name');
  }
  const provider = oneOf(body.provider, PROVIDERS, 'provider');
  const authMethod = oneOf(body.auth_method, AUTH_METHODS, 'auth_method');
  const required = AUTH_TABLE[provider][authMethod];
  if (!required)
    throw bad(`auth_method ${authMethod} is not available for provider ${provider} (${Object.keys(AUTH_TABLE[provider]).join(', ')})`, 'auth_method');
  if (typeof bucket !== 'string' || !BUCKET_RULES[provider].test(bucket))
    throw bad(`bucket is not a valid ${provider === 'azure' ? 'container' : 'bucket'} name`, 'bucket');

  if (region !== undefined && provider !== 'aws') throw bad('region applies to aws only', 'region');
  if (region !== undefined && (typeof region !== 'string' || !REGION.test(region))) throw bad('region must be a region name such as us-east-1', 'region');
  if (authMethod === 'access_key' && region === undefined) throw bad('region is required for access_key', 'region');

  const endpointAllowed = provider === 'aws' || (provider === 'azure' && opts.azureEmulator);
  if (endpoint !== undefined && !endpointAllowed) throw bad(`endpoint is not available for provider ${provider}`, 'endpoint');
  if (endpoint !== undefined && typeof endpoint !== 'string') throw bad('endpoint must be a string', 'endpoint');

  const details = body.provider_specific_details ?? {};
  if (!details || typeof details !== 'object' || Array.isArray(details)) throw bad('provider_specific_details must be an object', 'provider_specific_details');
  const given = details as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(key in required)) throw bad(`provider_specific_details.${key} does not apply to ${provider}/${authMethod}`, `provider_specific_details.${key}`);
  }
  const checked: Record<string, string> = {};
  for (const [key, rule] of Object.entries(required)) {
    const value = given[key];
    if (typeof value !== 'string' || !rule.test(value))
      throw bad(`provider_specific_details.${key} is missing or malformed`, `provider_specific_details.${key}`);
    checked[key] = value;
  }

  if (authMethod === 'access_key') {
    if (typeof secret !== 'string' || !secret || secret.length > SECRET_MAX)
      throw bad(`secret is required for access_key (1 to ${SECRET_MAX} characters)`, 'secret');
  } else if (secret !== undefined) {
    throw bad(`secret is accepted only with auth_method access_key; ${provider}/${authMethod} is keyless`, 'secret');
  }

  return {
    name: typeof name === 'string' ? name.trim() : bucket,
    provider,
    auth_method: authMethod,
    bucket,
    region: typeof region === 'string' ? region : null,
    endpoint: typeof endpoint === 'string' ? endpoint : null,
    provider_specific_details: checked,
    secret: authMethod === 'access_key' ? (secret as string) : null,
  };
}
