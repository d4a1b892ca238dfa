import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Config } from '../core/config.js';
import { type LicensePayload, LicenseFileError, licenseKeyOf, verifyLicenseFile } from './file.js';

/** The vendor's public key shipped with the appliance; FOLIO_LICENSE_PUBLIC_KEY_FILE replaces it. */
export const SHIPPED_PUBLIC_KEY_FILE = fileURLToPath(new URL('./vendor-public-key.pem', import.meta.url));

/** Config fields a licence file decides; the environment's values are only defaults for them. */
const LICENSED_FIELDS = ['FOLIO_CUSTOMER', 'FOLIO_DEPLOYMENT_ID', 'FOLIO_LICENSE_MODE', 'FOLIO_METERING_MODE', 'FOLIO_LICENSE_KEY'] as const;

export interface LicenseAtStart {
  /** The configuration to start with: the licence's values in place of the environment's. */
  config: Config;
  /** The verified payload; null when no licence file is configured (the environment decides). */
  license: LicensePayload | null;
  /** Variables whose configured value (environment or default) the licence replaced; names only, never values. */
  overridden: string[];
}

export interface LoadLicenseOptions {
  /** @default Date.now */
  now?: () => number;
  /** @default fs.readFileSync(path, 'utf8') */
  readFile?: (path: string) => string;
}

/**
 * Verifies FOLIO_LICENSE_FILE, when set, before anything starts, and returns the configuration
 * with the licence's customer, deployment id, licence and metering modes and licence key in place.
 * Throws LicenseFileError (a ConfigError) with a message an operator can act on: unreadable file
 * or key, malformed, bad signature, expired, clock far behind the issue date, or an online /
 * metered licence without FOLIO_LICENSE_URL / FOLIO_METERING_URL to reach the vendor.
 */
export function loadLicenseAtStart(config: Config, opts: LoadLicenseOptions = {}): LicenseAtStart {
  const path = config.FOLIO_LICENSE_FILE;
  if (!path) return { config, license: null, overridden: [] };
  const read = opts.readFile ?? ((p: string) => readFileSync(p, 'utf8'));
  const keyPath = config.FOLIO_LICENSE_PUBLIC_KEY_FILE ?? SHIPPED_PUBLIC_KEY_FILE;
  const text = readOrThrow(read, path, 'FOLIO_LICENSE_FILE');
  const keyPem = readOrThrow(read, keyPath, 'FOLIO_LICENSE_PUBLIC_KEY_FILE');
  let license: LicensePayload;
  try {
    license = verifyLicenseFile(text, keyPem, (opts.now ?? Date.now)());
  } catch (err) {
    if (err instanceof LicenseFileError) throw new LicenseFileError(err.problem, `licence file ${path}: ${err.message}`);
    throw err;
  }
  const licensed: Config = {
    ...config,
    FOLIO_CUSTOMER: license.customer,
    FOLIO_DEPLOYMENT_ID: license.deployment_id,
    FOLIO_LICENSE_MODE: license.license_mode,
    FOLIO_METERING_MODE: license.metering_mode,
    // The file is the credential: checks and reports authenticate with the key derived from it.
    FOLIO_LICENSE_KEY: licenseKeyOf(JSON.parse(text) as { signature: string }),
  };
  if (licensed.FOLIO_LICENSE_MODE === 'online' && !licensed.FOLIO_LICENSE_URL) {
    throw new LicenseFileError('incomplete_config', `licence file ${path} is for online mode: set FOLIO_LICENSE_URL to the vendor's licence server`);
  }
  if (licensed.FOLIO_METERING_MODE === 'metered' && !licensed.FOLIO_METERING_URL) {
    throw new LicenseFileError('incomplete_config', `licence file ${path} is for metered usage: set FOLIO_METERING_URL to the vendor's metering server`);
  }
  const overridden = LICENSED_FIELDS.filter((f) => config[f] !== undefined && config[f] !== licensed[f]);
  return { config: licensed, license, overridden };
}

function readOrThrow(read: (path: string) => string, path: string, variable: string): string {
  try {
    return read(path);
  } catch (err) {
    const code = (err as { code?: string }).code ?? (err as Error).message;
    throw new LicenseFileError('unreadable', `${variable} ${path} cannot be read (${code})`);
  }
}
