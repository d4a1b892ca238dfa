import { describe, expect, it } from 'vitest';
import { GRACE_MS, type StoredLicense, deriveStatus, effectiveLicense, initialLicense } from './state.js';

const T0 = Date.parse('2025-06-01T00:00:00Z');
const HOUR = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString();

function rec(over: Partial<StoredLicense> = {}): StoredLicense {
  return { ...initialLicense('online', 'dep-1', T0), ...over };
}

describe('deriveStatus', () => {
  it('is not_enforced for an air-gapped build whatever the record says', () => {
    expect(deriveStatus(initialLicense('air_gapped', 'dep-1', T0), T0 + 100 * GRACE_MS)).toBe('not_enforced');
  });

  it('is grace at first start until 24 h have passed without any success, then blocked', () => {
    const r = rec();
    expect(r.grace_ends_at).toBe(at(T0 + GRACE_MS));
    expect(deriveStatus(r, T0)).toBe('grace');
    expect(deriveStatus(r, T0 + GRACE_MS - 1)).toBe('grace');
    expect(deriveStatus(r, T0 + GRACE_MS)).toBe('blocked');
  });

  it('is verified after a success and grace after a failed check inside 24 h', () => {
    expect(deriveStatus(rec({ last_verified_at: at(T0), consecutive_failures: 0 }), T0 + HOUR)).toBe('verified');
    expect(deriveStatus(rec({ last_verified_at: at(T0), consecutive_failures: 1 }), T0 + HOUR)).toBe('grace');
  });

  it('is blocked 24 h after the last success, even when no failed check was recorded', () => {
    expect(deriveStatus(rec({ last_verified_at: at(T0), consecutive_failures: 3 }), T0 + GRACE_MS)).toBe('blocked');
    expect(deriveStatus(rec({ last_verified_at: at(T0), consecutive_failures: 0 }), T0 + GRACE_MS)).toBe('blocked');
  });
});

describe('effectiveLicense', () => {
  it('starts over when the stored record belongs to the other licence mode', () => {
    const stored = rec({ last_verified_at: at(T0), consecutive_failures: 0 });
    const r = effectiveLicense(stored, 'air_gapped', 'dep-1', T0 + HOUR);
    expect(r).toMatchObject({ status: 'not_enforced', license_mode: 'air_gapped', last_verified_at: null, grace_ends_at: null });
  });

  it('derives the status of the stored record with the clock', () => {
    const stored = rec({ last_verified_at: at(T0), consecutive_failures: 1, last_error: 'unauthorized' });
    expect(effectiveLicense(stored, 'online', 'dep-1', T0 + 2 * HOUR)).toMatchObject({ status: 'grace', last_error: 'unauthorized' });
  });
});
