import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { ApiError } from '../../core/errors.js';
import { openDatabase } from '../db.js';
import { ROTATION_GRACE_MS, WebhookSecrets } from './secrets.js';

describe('WebhookSecrets (spec 3.7)', () => {
  let db: Database.Database;
  let clock: number;
  let store: WebhookSecrets;
  beforeEach(() => {
    db = openDatabase(':memory:');
    clock = Date.parse('2025-01-01T00:00:00Z');
    store = new WebhookSecrets({ db, now: () => clock });
  });
  afterEach(() => db.close());

  it('creates one whsec_ secret on first use and keeps it', () => {
    const first = store.getOrCreate();
    expect(first.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(first.previousSecretExpiresAt).toBeNull();
    expect(store.getOrCreate().secret).toBe(first.secret);
    expect(store.activeSecrets()).toEqual([first.secret]);
  });

  it('rotating with no secret yet gives one secret and no grace', () => {
    const s = store.rotate();
    expect(s.previousSecretExpiresAt).toBeNull();
    expect(store.activeSecrets()).toEqual([s.secret]);
  });

  it('a rotation without force opens a 24-hour grace with both secrets signing, then one', () => {
    const old = store.getOrCreate().secret;
    const next = store.rotate();
    expect(next.secret).not.toBe(old);
    expect(next.previousSecretExpiresAt).toBe(new Date(clock + ROTATION_GRACE_MS).toISOString());
    expect(store.getOrCreate()).toEqual(next);
    expect(store.activeSecrets()).toEqual([next.secret, old]);
    clock += ROTATION_GRACE_MS - 1;
    expect(store.activeSecrets()).toEqual([next.secret, old]);
    clock += 1;
    expect(store.activeSecrets()).toEqual([next.secret]);
    expect(store.getOrCreate().previousSecretExpiresAt).toBeNull();
  });

  it('a second rotation inside the grace period is a conflict and changes nothing', () => {
    store.getOrCreate();
    const next = store.rotate();
    const err = (() => {
      try {
        store.rotate();
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).id).toBe('conflict');
    expect(store.getOrCreate()).toEqual(next);
  });

  it('force inside the grace period leaves one new secret at once', () => {
    store.getOrCreate();
    const mid = store.rotate();
    const forced = store.rotate(true);
    expect(forced.previousSecretExpiresAt).toBeNull();
    expect(forced.secret).not.toBe(mid.secret);
    expect(store.activeSecrets()).toEqual([forced.secret]);
    // and a plain rotation is allowed again straight away
    expect(store.rotate().previousSecretExpiresAt).not.toBeNull();
  });

  it('force with one secret replaces it at once; rotation after the grace is allowed', () => {
    const old = store.getOrCreate().secret;
    const forced = store.rotate(true);
    expect(store.activeSecrets()).toEqual([forced.secret]);
    expect(forced.secret).not.toBe(old);
    store.rotate();
    clock += ROTATION_GRACE_MS;
    expect(() => store.rotate()).not.toThrow();
  });

  it('keeps scopes apart', () => {
    const other = new WebhookSecrets({ db, key: 'app-1', now: () => clock });
    expect(other.getOrCreate().secret).not.toBe(store.getOrCreate().secret);
  });
});
