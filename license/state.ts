import type { Redis } from 'ioredis';

export type LicenseStatus = 'verified' | 'grace' | 'blocked' | 'not_enforced';
export type LicenseMode = 'online' | 'air_gapped';
export const LICENSE_STATUSES: readonly (LicenseStatus | 'unknown')[] = ['verified', 'grace', 'blocked', 'not_enforced', 'unknown'];
/** How long processing continues after the last successful check (spec 3.9). */
export const GRACE_MS = 24 * 3600 * 1000;

/** The licence record shown by /pco/v1/license. */
export interface LicenseRecord {
  status: LicenseStatus;
  license_mode: LicenseMode;
  deployment_id: string;
  last_verified_at: string | null;
  last_checked_at: string | null;
  consecutive_failures: number;
  /** When submissions stop unless a check succeeds first: last success + 24 h, or first start + 24 h. */
  grace_ends_at: string | null;
  /** Informational: the licence server answers 401/403 once the licence has expired. */
  expires_at: string | null;
  /** null, `unreachable:<detail>`, `clock_skew:+Ns` / `clock_skew:-Ns`, or `unauthorized`. */
  last_error: string | null;
}

/** What is stored in Redis: the status is never stored, it is derived with the clock on read. */
export type StoredLicense = Omit<LicenseRecord, 'status'>;

/** Redis key of the licence record (one per deployment prefix, shared by every process). */
export const licenseKey = (prefix: string) => `${prefix}:license`;

/**
 * Derives the status from the record and the clock (3.9): air-gapped builds are not_enforced; a
 * deployment never verified is in grace until grace_ends_at (first start + 24 h); otherwise 24 h
 * without a successful check is blocked, whatever the failure count, and inside that window a
 * failed last check means grace.
 */
export function deriveStatus(rec: StoredLicense, now: number): LicenseStatus {
  if (rec.license_mode === 'air_gapped') return 'not_enforced';
  if (rec.last_verified_at === null) return rec.grace_ends_at && Date.parse(rec.grace_ends_at) <= now ? 'blocked' : 'grace';
  if (now - Date.parse(rec.last_verified_at) >= GRACE_MS) return 'blocked';
  return rec.consecutive_failures === 0 ? 'verified' : 'grace';
}

/** Reads the licence record; null when the deployment has never stored one. */
export async function readLicense(redis: Redis, prefix: string): Promise<StoredLicense | null> {
  const raw = await redis.get(licenseKey(prefix));
  return raw ? (JSON.parse(raw) as StoredLicense) : null;
}

export async function writeLicense(redis: Redis, prefix: string, rec: StoredLicense): Promise<void> {
  await redis.set(licenseKey(prefix), JSON.stringify(rec));
}

/** The record of a deployment that has never completed a check: grace for 24 h from now (online). */
export function initialLicense(mode: LicenseMode, deploymentId: string, now: number): StoredLicense {
  return {
    license_mode: mode,
    deployment_id: deploymentId,
    last_verified_at: null,
    last_checked_at: null,
    consecutive_failures: 0,
    grace_ends_at: mode === 'online' ? new Date(now + GRACE_MS).toISOString() : null,
    expires_at: null,
    last_error: null,
  };
}

/**
 * The record as this process's configuration sees it: the stored one, or a fresh one when none
 * is stored or it was written under the other licence mode (a mode switch starts over).
 */
export function effectiveLicense(stored: StoredLicense | null, mode: LicenseMode, deploymentId: string, now: number): LicenseRecord {
  const rec = stored && stored.license_mode === mode ? { ...stored, deployment_id: deploymentId } : initialLicense(mode, deploymentId, now);
  return { status: deriveStatus(rec, now), ...rec };
}

/** Reads and derives in one step; what the gate and GET /pco/v1/license use. */
export async function currentLicense(redis: Redis, prefix: string, mode: LicenseMode, deploymentId: string, now: number): Promise<LicenseRecord> {
  return effectiveLicense(await readLicense(redis, prefix), mode, deploymentId, now);
}
