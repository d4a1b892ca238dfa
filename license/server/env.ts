import { z } from 'zod';

/** The vendor service's environment (not the appliance's: it runs on the vendor's side). */
export const vendorEnvSchema = z.object({
  /** TCP port of the vendor service. */
  FOLIO_VENDOR_PORT: z.coerce.number().int().min(0).max(65535).default(8090),
  /** Address the vendor service binds to. */
  FOLIO_VENDOR_HOST: z.string().default('127.0.0.1'),
  /** Ed25519 private key (PEM) licences are signed with; its public half ships as license/vendor-public-key.pem. */
  FOLIO_VENDOR_PRIVATE_KEY_FILE: z.string().min(1),
  /** Bearer token of the admin endpoints (issue, list, revoke, usage). */
  FOLIO_VENDOR_ADMIN_TOKEN: z.string().min(16),
  /** SQLite file of licences and usage; `:memory:` forgets everything on exit. */
  FOLIO_VENDOR_DB: z.string().default('./data/vendor.sqlite'),
  /** Mount PUT /v1/test/clock (clock skew for tests); never on a real vendor deployment. */
  FOLIO_VENDOR_TEST_CONTROLS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});

export type VendorEnv = z.infer<typeof vendorEnvSchema>;

/** Parses the environment; a bad value throws an Error naming the variable. */
export function loadVendorEnv(env: NodeJS.ProcessEnv = process.env): VendorEnv {
  const parsed = vendorEnvSchema.safeParse(env);
  if (!parsed.success) throw new Error(`invalid configuration:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  return parsed.data;
}
