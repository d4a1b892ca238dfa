import { type KeyObject, createHash, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { z } from 'zod';
import { ConfigError } from '../core/config.js';
import { canonicalJson } from '../core/ids.js';

/**
 * Signed licence file:
 *
 *   {"payload": {"customer", "deployment_id", "license_mode", "metering_mode", "expires_at", "issued_at"},
 *    "signature": base64(Ed25519(canonicalJson(payload)))}
 *
 * The signature covers the payload exactly as written, unknown fields included, so a vendor can add
 * fields without breaking older appliances. The file is also the deployment's credential towards the
 * vendor: licenseKeyOf() derives the bearer token of licence checks and usage reports from it.
 */
const isoTime = z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 time');

export const licensePayloadSchema = z.object({
  customer: z.string().min(1),
  deployment_id: z.string().min(1),
  license_mode: z.enum(['online', 'air_gapped']),
  metering_mode: z.enum(['metered', 'offline']),
  expires_at: isoTime,
  issued_at: isoTime,
});
export type LicensePayload = z.infer<typeof licensePayloadSchema>;

export interface LicenseFile {
  payload: LicensePayload;
  /** Base64 of the 64-byte Ed25519 signature over canonicalJson(payload). */
  signature: string;
}

/** A licence issued after the local clock by more than this is refused: the clock is wrong. */
export const MAX_ISSUED_AHEAD_MS = 24 * 3600 * 1000;
const SIGNATURE_RE = /^[A-Za-z0-9+/]{86}==$/;

export type LicenseFileProblem = 'unreadable' | 'malformed' | 'bad_key' | 'bad_signature' | 'expired' | 'not_yet_valid' | 'incomplete_config';

/** A licence file that cannot be used; a ConfigError, so the appliance stops with its message. */
export class LicenseFileError extends ConfigError {
  constructor(
    readonly problem: LicenseFileProblem,
    message: string,
  ) {
    super(message);
    this.name = 'LicenseFileError';
  }
}

/** An Ed25519 public key from PEM text (or a KeyObject), refusing any other key type. */
export function publicKeyFrom(pem: string | KeyObject): KeyObject {
  let key: KeyObject;
  try {
    key = typeof pem === 'string' ? createPublicKey(pem) : pem;
  } catch (err) {
    throw new LicenseFileError('bad_key', `the licence public key is not a PEM public key (${(err as Error).message})`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new LicenseFileError('bad_key', `the licence public key must be Ed25519, not ${key.asymmetricKeyType}`);
  return key;
}

/**
 * Verifies a licence file's text against the vendor's public key at time `now` and returns its
 * payload. Throws LicenseFileError: malformed (not JSON, wrong shape), bad_signature (tampered
 * payload or another vendor's key), expired, not_yet_valid (issued more than a day after `now`).
 */
export function verifyLicenseFile(text: string, publicKeyPem: string | KeyObject, now: number): LicensePayload {
  const key = publicKeyFrom(publicKeyPem);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new LicenseFileError('malformed', 'the licence file is not JSON');
  }
  const d = doc as { payload?: unknown; signature?: unknown } | null;
  if (!d || typeof d !== 'object' || !d.payload || typeof d.payload !== 'object' || Array.isArray(d.payload)) {
    throw new LicenseFileError('malformed', 'the licence file has no payload object');
  }
  if (typeof d.signature !== 'string' || !SIGNATURE_RE.test(d.signature)) {
    throw new LicenseFileError('malformed', 'the licence file has no base64 Ed25519 signature');
  }
  if (!verify(null, Buffer.from(canonicalJson(d.payload)), key, Buffer.from(d.signature, 'base64'))) {
    throw new LicenseFileError('bad_signature', 'the signature does not match the payload: the file was altered or signed with another key');
  }
  const parsed = licensePayloadSchema.safeParse(d.payload);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new LicenseFileError('malformed', `the licence payload is incomplete (${fields})`);
  }
  const payload = parsed.data;
  if (Date.parse(payload.expires_at) <= now) {
    throw new LicenseFileError('expired', `the licence expired at ${payload.expires_at}; ask the vendor for a renewed licence file`);
  }
  if (Date.parse(payload.issued_at) - now > MAX_ISSUED_AHEAD_MS) {
    throw new LicenseFileError(
      'not_yet_valid',
      `the licence was issued at ${payload.issued_at}, after this machine's clock (${new Date(now).toISOString()}): check the clock`,
    );
  }
  return payload;
}

/** Signs a payload with the vendor's Ed25519 private key (PEM or KeyObject). Vendor side and tests. */
export function signLicense(payload: LicensePayload, privateKeyPem: string | KeyObject): LicenseFile {
  const key = typeof privateKeyPem === 'string' ? createPrivateKey(privateKeyPem) : privateKeyPem;
  const signature = sign(null, Buffer.from(canonicalJson(payload)), key).toString('base64');
  return { payload, signature };
}

/**
 * The bearer token a licensed deployment sends to the licence and metering servers, derived from
 * the file's signature so the file is the only credential an operator installs. The vendor stores
 * only its hash (see hashLicenseKey).
 */
export function licenseKeyOf(file: Pick<LicenseFile, 'signature'>): string {
  return `flk_${createHash('sha256').update(`folio-license-key\n${file.signature}`).digest('base64url')}`;
}

/** What the vendor stores to recognise a licence key without keeping the key itself. */
export function hashLicenseKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
