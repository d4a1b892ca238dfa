import type { Redis } from 'ioredis';

export type LicenseStatus = 'verified' | 'grace' | 'blocked' | 'not_enforced';
export const LICENSE_STATUSES: readonly (LicenseStatus | 'unknown')[] = ['verified', 'grace', 'blocked', 'not_enforced', 'unknown'];
export const GRACE_MS = 24 * 3600 * 1000;

/** The licence record kept in Redis and shown by /pco/v1/license. */
export interface LicenseRecord {
  status: LicenseStatus;
  license_mode: 'online' | 'air_gapped';
  deployment_id: string;
  last_verified_at: string | null;
  last_checked_at: string | null;
  consecutive_failures: number;
  grace_ends_at: string | null;
  expires_at: string | null;
  last_error: string | null;
}

export const licenseKey = (prefix: string) => `${prefix}:license`;

/**
 * Derives the status from the record and the clock (3.9): air-gapped builds are not_enforced;
 * a deployment never verified, or whose last success is under 24 h old after a failure, is in
 * grace; past that it is blocked.
 */
export function deriveStatus(rec: Omit<LicenseRecord, 'status'>, now: number): LicenseStatus {
  if (rec.license_mode === 'air_gapped') return 'not_enforced';
  if (rec.last_verified_at === null) return rec.grace_ends_at && Date.parse(rec.grace_ends_at) <= now ? 'blocked' : 'grace';
  if (rec.consecutive_failures === 0) return 'verified';
  return now - Date.parse(rec.last_verified_at) >= GRACE_MS ? 'blocked' : 'grace';
}

/** Reads the licence record; null when the deployment has never stored one. */
export async function readLicense(redis: Redis, prefix: string): Promise<Omit<LicenseRecord, 'status'> | null> {
  const raw = await redis.get(licenseKey(prefix));
  return raw ? JSON.parse(raw) : null;
}

export function initialLicense(mode: 'online' | 'air_gapped', deploymentId: string, now: number): Omit<LicenseRecord, 'status'> {
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
