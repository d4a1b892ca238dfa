import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../core/config.js';
import { type LicensePayload, licenseKeyOf, signLicense, verifyLicenseFile } from './file.js';
import { SHIPPED_PUBLIC_KEY_FILE, loadLicenseAtStart } from './start.js';

const NOW = Date.parse('2025-06-01T00:00:00Z');
const vendor = generateKeyPairSync('ed25519');
const dir = mkdtempSync(join(tmpdir(), 'folio-licence-'));
const publicKeyFile = join(dir, 'vendor.pem');
writeFileSync(publicKeyFile, vendor.publicKey.export({ type: 'spki', format: 'pem' }));

const payload = (over: Partial<LicensePayload> = {}): LicensePayload => ({
  customer: 'Acme Corp',
  deployment_id: 'acme-prod',
  license_mode: 'online',
  metering_mode: 'metered',
  issued_at: '2025-05-01T00:00:00.000Z',
  expires_at: '2026-05-01T00:00:00.000Z',
  ...over,
});
let n = 0;
function licenceFile(p = payload(), tamper?: (doc: { payload: Record<string, unknown> }) => void): string {
  const doc = signLicense(p, vendor.privateKey) as unknown as { payload: Record<string, unknown>; signature: string };
  tamper?.(doc);
  const file = join(dir, `licence-${n++}.json`);
  writeFileSync(file, JSON.stringify(doc));
  return file;
}
const URLS = { FOLIO_LICENSE_URL: 'https://licence.vendor.example/', FOLIO_METERING_URL: 'https://metering.vendor.example/' };
const config = (env: Record<string, string>) => loadConfig({ FOLIO_LICENSE_PUBLIC_KEY_FILE: publicKeyFile, ...URLS, ...env });
const load = (env: Record<string, string>) => loadLicenseAtStart(config(env), { now: () => NOW });

describe('loadLicenseAtStart', () => {
  it('leaves the configuration alone when no licence file is configured', () => {
    const c = config({ FOLIO_CUSTOMER: 'Env Co' });
    expect(loadLicenseAtStart(c)).toEqual({ config: c, license: null, overridden: [] });
  });

  it("puts the licence's customer, deployment, modes and key in place of the environment's", () => {
    const file = licenceFile();
    const {
      config: c,
      license,
      overridden,
    } = load({
      FOLIO_LICENSE_FILE: file,
      FOLIO_CUSTOMER: 'Env Co',
      FOLIO_DEPLOYMENT_ID: 'env-dep',
      FOLIO_LICENSE_MODE: 'air_gapped',
      FOLIO_METERING_MODE: 'offline',
      FOLIO_LICENSE_KEY: 'env-key',
    });
    expect(license).toEqual(payload());
    expect(c).toMatchObject({ FOLIO_CUSTOMER: 'Acme Corp', FOLIO_DEPLOYMENT_ID: 'acme-prod', FOLIO_LICENSE_MODE: 'online', FOLIO_METERING_MODE: 'metered' });
    expect(c.FOLIO_LICENSE_KEY).toBe(licenseKeyOf(JSON.parse(JSON.stringify(signLicense(payload(), vendor.privateKey)))));
    expect(overridden).toEqual(['FOLIO_CUSTOMER', 'FOLIO_DEPLOYMENT_ID', 'FOLIO_LICENSE_MODE', 'FOLIO_METERING_MODE', 'FOLIO_LICENSE_KEY']);
    expect(c.FOLIO_LICENSE_URL).toBe(URLS.FOLIO_LICENSE_URL);
  });

  it('stops the start with a ConfigError naming the file when the licence is tampered, expired or unreadable', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ FOLIO_LICENSE_FILE: licenceFile(payload(), (d) => (d.payload.customer = 'Other')) }, /licence file .*licence-\d+\.json: the signature does not match/],
      [{ FOLIO_LICENSE_FILE: licenceFile(payload({ expires_at: '2025-05-31T00:00:00.000Z' })) }, /the licence expired at 2025-05-31T00:00:00.000Z/],
      [{ FOLIO_LICENSE_FILE: join(dir, 'missing.json') }, /FOLIO_LICENSE_FILE .*missing\.json cannot be read \(ENOENT\)/],
      [
        { FOLIO_LICENSE_FILE: licenceFile(), FOLIO_LICENSE_PUBLIC_KEY_FILE: join(dir, 'nokey.pem') },
        /FOLIO_LICENSE_PUBLIC_KEY_FILE .*nokey\.pem cannot be read/,
      ],
    ];
    for (const [env, message] of cases) {
      expect(() => load(env)).toThrow(ConfigError);
      expect(() => load(env)).toThrow(message);
    }
  });

  it('requires the vendor URLs an online or metered licence needs', () => {
    const online = licenceFile(payload({ metering_mode: 'offline' }));
    const c = loadConfig({ FOLIO_LICENSE_PUBLIC_KEY_FILE: publicKeyFile, FOLIO_LICENSE_FILE: online });
    expect(() => loadLicenseAtStart(c, { now: () => NOW })).toThrow(/is for online mode: set FOLIO_LICENSE_URL/);
    const metered = licenceFile(payload({ license_mode: 'air_gapped' }));
    const m = loadConfig({ FOLIO_LICENSE_PUBLIC_KEY_FILE: publicKeyFile, FOLIO_LICENSE_FILE: metered });
    expect(() => loadLicenseAtStart(m, { now: () => NOW })).toThrow(/is for metered usage: set FOLIO_METERING_URL/);
    const airGapped = licenceFile(payload({ license_mode: 'air_gapped', metering_mode: 'offline' }));
    const a = loadConfig({ FOLIO_LICENSE_PUBLIC_KEY_FILE: publicKeyFile, FOLIO_LICENSE_FILE: airGapped });
    expect(loadLicenseAtStart(a, { now: () => NOW }).config.FOLIO_LICENSE_MODE).toBe('air_gapped');
  });

  it('verifies with the shipped vendor key when FOLIO_LICENSE_PUBLIC_KEY_FILE is unset', () => {
    const c = loadConfig({ ...URLS, FOLIO_LICENSE_FILE: licenceFile() });
    expect(c.FOLIO_LICENSE_PUBLIC_KEY_FILE).toBeUndefined();
    // A test key is not the vendor's, so the shipped key must refuse it.
    expect(() => loadLicenseAtStart(c, { now: () => NOW })).toThrow(/signature does not match/);
    expect(() => verifyLicenseFile('{}', readFileSync(SHIPPED_PUBLIC_KEY_FILE, 'utf8'), NOW)).toThrow(/no payload/);
  });
});
