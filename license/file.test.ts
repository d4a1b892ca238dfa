import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/config.js';
import { type LicensePayload, LicenseFileError, MAX_ISSUED_AHEAD_MS, licenseKeyOf, signLicense, verifyLicenseFile } from './file.js';

const NOW = Date.parse('2025-06-01T00:00:00Z');
const vendor = generateKeyPairSync('ed25519');
const other = generateKeyPairSync('ed25519');
const pem = (k = vendor) => k.publicKey.export({ type: 'spki', format: 'pem' }) as string;

const payload = (over: Partial<LicensePayload> = {}): LicensePayload => ({
  customer: 'Acme Corp',
  deployment_id: 'acme-prod',
  license_mode: 'online',
  metering_mode: 'metered',
  issued_at: '2025-05-01T00:00:00.000Z',
  expires_at: '2026-05-01T00:00:00.000Z',
  ...over,
});
const text = (p = payload(), key = vendor.privateKey) => JSON.stringify(signLicense(p, key), null, 2);

/** The LicenseFileError thrown by fn, so tests can assert problem and message together. */
function problemOf(fn: () => unknown): LicenseFileError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(LicenseFileError);
    expect(err).toBeInstanceOf(ConfigError);
    return err as LicenseFileError;
  }
  throw new Error('expected a LicenseFileError');
}

describe('verifyLicenseFile', () => {
  it('returns the payload of a licence signed by the vendor key, in any key order or layout', () => {
    expect(verifyLicenseFile(text(), pem(), NOW)).toEqual(payload());
    const { payload: p, signature } = signLicense(payload(), vendor.privateKey);
    const reordered = JSON.stringify({ signature, payload: Object.fromEntries(Object.entries(p).reverse()) });
    expect(verifyLicenseFile(reordered, vendor.publicKey, NOW)).toEqual(payload());
  });

  it('refuses a payload changed after signing (customer, mode or expiry)', () => {
    for (const change of [{ customer: 'Someone Else' }, { license_mode: 'air_gapped' }, { expires_at: '2099-01-01T00:00:00.000Z' }]) {
      const doc = JSON.parse(text());
      Object.assign(doc.payload, change);
      expect(problemOf(() => verifyLicenseFile(JSON.stringify(doc), pem(), NOW))).toMatchObject({
        problem: 'bad_signature',
        message: expect.stringMatching(/altered or signed with another key/),
      });
    }
  });

  it('refuses a field added after signing', () => {
    const doc = JSON.parse(text());
    doc.payload.seats = 1000;
    expect(problemOf(() => verifyLicenseFile(JSON.stringify(doc), pem(), NOW)).problem).toBe('bad_signature');
  });

  it('refuses a licence signed with another key', () => {
    expect(problemOf(() => verifyLicenseFile(text(payload(), other.privateKey), pem(), NOW)).problem).toBe('bad_signature');
    expect(problemOf(() => verifyLicenseFile(text(), pem(other), NOW)).problem).toBe('bad_signature');
  });

  it('refuses an expired licence and names the expiry', () => {
    const err = problemOf(() => verifyLicenseFile(text(payload({ expires_at: '2025-05-31T23:59:59.000Z' })), pem(), NOW));
    expect(err.problem).toBe('expired');
    expect(err.message).toContain('2025-05-31T23:59:59.000Z');
    expect(problemOf(() => verifyLicenseFile(text(payload({ expires_at: new Date(NOW).toISOString() })), pem(), NOW)).problem).toBe('expired');
  });

  it('refuses a licence issued more than a day after the local clock (clock far behind)', () => {
    const ahead = (ms: number) => text(payload({ issued_at: new Date(NOW + ms).toISOString() }));
    expect(verifyLicenseFile(ahead(MAX_ISSUED_AHEAD_MS), pem(), NOW).customer).toBe('Acme Corp');
    expect(problemOf(() => verifyLicenseFile(ahead(MAX_ISSUED_AHEAD_MS + 1), pem(), NOW)).problem).toBe('not_yet_valid');
  });

  it('refuses malformed files with a reason', () => {
    const good = JSON.parse(text());
    const cases: [string, RegExp][] = [
      ['not json {', /not JSON/],
      ['null', /no payload/],
      [JSON.stringify({ signature: good.signature }), /no payload/],
      [JSON.stringify({ payload: [], signature: good.signature }), /no payload/],
      [JSON.stringify({ payload: good.payload }), /no base64 Ed25519 signature/],
      [JSON.stringify({ payload: good.payload, signature: 'c2ln' }), /no base64 Ed25519 signature/],
    ];
    for (const [t, message] of cases) {
      const err = problemOf(() => verifyLicenseFile(t, pem(), NOW));
      expect(err.problem).toBe('malformed');
      expect(err.message).toMatch(message);
    }
  });

  it('refuses a correctly signed payload that lacks a field', () => {
    const { customer: _, ...rest } = payload();
    const err = problemOf(() => verifyLicenseFile(text(rest as LicensePayload), pem(), NOW));
    expect(err).toMatchObject({ problem: 'malformed', message: expect.stringContaining('customer') });
  });

  it('refuses a public key that is not an Ed25519 PEM', () => {
    expect(problemOf(() => verifyLicenseFile(text(), 'not a key', NOW)).problem).toBe('bad_key');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }) as string;
    expect(problemOf(() => verifyLicenseFile(text(), rsa, NOW)).message).toMatch(/must be Ed25519, not rsa/);
  });
});

describe('licenseKeyOf', () => {
  it('derives one stable key per licence file, different for every licence', () => {
    const a = signLicense(payload(), vendor.privateKey);
    const b = signLicense(payload({ deployment_id: 'acme-test' }), vendor.privateKey);
    expect(licenseKeyOf(a)).toBe(licenseKeyOf(JSON.parse(JSON.stringify(a))));
    expect(licenseKeyOf(a)).toMatch(/^flk_[A-Za-z0-9_-]{43}$/);
    expect(licenseKeyOf(a)).not.toBe(licenseKeyOf(b));
  });
});
