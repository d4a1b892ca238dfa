import type { Config } from '../../../core/config.js';

/** GET /files/v1/onboarding/identities (spec 4.11): whom the customer's grants must trust. */
export interface OnboardingIdentities {
  aws: { trust_account_id: string | null; external_id: string };
  azure: { app_id: string | null; tenant_id: string | null };
  gcp: { service_account_email: string | null; external_id: string };
}

/**
 * The identities a customer grants access to: the operator's account, directory app and
 * impersonating service account (configuration, null until set), and the group's own external
 * id, shared by aws and gcp.
 */
export function onboardingIdentities(config: Config, externalId: string): OnboardingIdentities {
  return {
    aws: { trust_account_id: config.FOLIO_AWS_TRUST_ACCOUNT_ID ?? null, external_id: externalId },
    azure: { app_id: config.FOLIO_AZURE_APP_ID ?? null, tenant_id: config.FOLIO_AZURE_TENANT_ID ?? null },
    gcp: { service_account_email: config.FOLIO_GCP_SERVICE_ACCOUNT_EMAIL ?? null, external_id: externalId },
  };
}
