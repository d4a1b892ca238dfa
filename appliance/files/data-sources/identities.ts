import type { Config } from '../../../core/config.js';

/** GET /files/v1/onboarding/identities (spec 4.11): whom the customer's grants must trust. */
export interface OnboardingIdentities {
  aws: { trust_account_id: string | null; external_id: string };
  azure: { app_id: string | null; tenant_id: string | null };
  gcp: { service_account_email: string | null; external_id: string };
}

/** The service's own cloud identities; null until the operator configures them. */
interface ServiceIdentityConfig {
  FOLIO_AWS_TRUST_ACCOUNT_ID?: string;
  FOLIO_AZURE_APP_ID?: string;
  FOLIO_AZURE_TENANT_ID?: string;
  FOLIO_GCP_SERVICE_ACCOUNT_EMAIL?: string;
}

/**
 * The identities a customer grants access to: the operator's account, directory app and
 * impersonating service account (from ctx.config once core/config.ts parses them, from the
 * environment until then), and the group's own external id, shared by aws and gcp.
 */
export function onboardingIdentities(config: Config, externalId: string, env: NodeJS.ProcessEnv = process.env): OnboardingIdentities {
  const c = config as Config & ServiceIdentityConfig;
  const read = (name: keyof ServiceIdentityConfig) => c[name] ?? (env[name] || null);
  return {
    aws: { trust_account_id: read('FOLIO_AWS_TRUST_ACCOUNT_ID'), external_id: externalId },
    azure: { app_id: read('FOLIO_AZURE_APP_ID'), tenant_id: read('FOLIO_AZURE_TENANT_ID') },
    gcp: { service_account_email: read('FOLIO_GCP_SERVICE_ACCOUNT_EMAIL'), external_id: externalId },
  };
}
