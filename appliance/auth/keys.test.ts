import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../core/errors.js';
import { openDatabase } from '../db.js';
import { AppKeyStore, appIdOfKey, hashCredential, KEY_PREFIX_HEX } from './keys.js';

describe('AppKeyStore', () => {
  let db: Database.Database;
  let clock: number;
  let store: AppKeyStore;
  beforeEach(() => {
    db = openDatabase(':memory:');
    clock = Date.parse('2025-06-01T12:00:00Z');
    store = new AppKeyStore({ db, now: () => clock });
  });
  afterEach(() => db.close());

  it('makes a key <app_id>_<64 hex> and stores only its sha256 hash and a short prefix', () => {
    const { app } = store.createApp('acme');
    const key = store.createKey(app.app_id);
    expect(key.app_key).toMatch(new RegExp(`^${app.app_id}_[0-9a-f]{64}$`));
    expect(appIdOfKey(key.app_key)).toBe(app.app_id);
    expect(key.prefix).toBe(key.app_key.slice(0, app.app_id.length + 1 + KEY_PREFIX_HEX));
    const row = db.prepare('SELECT * FROM app_keys WHERE key_id = ?').get(key.key_id) as Record<string, unknown>;
    expect(row.key_hash).toBe(hashCredential(key.app_key));
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    const stored = JSON.stringify(db.prepare('SELECT * FROM app_keys').all());
    expect(stored).not.toContain(key.app_key.slice(app.app_id.length + 1));
  });

  it('gives every key a fresh secret', () => {
    const { app } = store.createApp('acme');
    const a = store.createKey(app.app_id);
    const b = store.createKey(app.app_id);
    expect(a.app_key).not.toBe(b.app_key);
    expect(a.key_id).not.toBe(b.key_id);
  });

  it('returns the existing app for a name already taken, and refuses it in another group', () => {
    const first = store.createApp('acme');
    expect(first.created).toBe(true);
    const again = store.createApp('  acme ');
    expect(again).toEqual({ app: first.app, created: false });
    expect(() => store.createApp('acme', 'other')).toThrow(expect.objectContaining({ id: 'conflict' }));
    expect(() => store.createApp('')).toThrow(ApiError);
    expect(() => store.createApp('a\nb')).toThrow(ApiError);
  });

  it('refuses a key for an unknown app with not_found', () => {
    expect(() => store.createKey('app_nope')).toThrow(expect.objectContaining({ id: 'not_found' }));
  });

  it('verifies a good key, with or without the matching app_id', () => {
    const { app } = store.createApp('acme', 'grp1');
    const key = store.createKey(app.app_id);
    const expected = { ok: true, key: { keyId: key.key_id, appId: app.app_id, groupId: 'grp1' } };
    expect(store.verifyKey(key.app_key)).toEqual(expected);
    expect(store.verifyKey(key.app_key, app.app_id)).toEqual(expected);
  });

  it('refuses a wrong key, a malformed one and one for an app that does not exist', () => {
    const { app } = store.createApp('acme');
    const key = store.createKey(app.app_id);
    const flipped = key.app_key.slice(0, -1) + (key.app_key.endsWith('0') ? '1' : '0');
    expect(store.verifyKey(flipped)).toEqual({ ok: false, reason: 'unknown' });
    expect(store.verifyKey('no-separator')).toEqual({ ok: false, reason: 'unknown' });
    expect(store.verifyKey('_leading')).toEqual({ ok: false, reason: 'unknown' });
    expect(store.verifyKey(`app_missing_${'0'.repeat(64)}`)).toEqual({ ok: false, reason: 'unknown' });
    expect(store.verifyKey(`${key.app_key}${'0'.repeat(300)}`)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('refuses a key whose app_id header names another app', () => {
    const a = store.createApp('a').app;
    const b = store.createApp('b').app;
    const key = store.createKey(a.app_id);
    expect(store.verifyKey(key.app_key, b.app_id)).toEqual({ ok: false, reason: 'app_mismatch' });
  });

  it('refuses a revoked key; revoking again keeps the first time', () => {
    const { app } = store.createApp('acme');
    const key = store.createKey(app.app_id);
    const other = store.createKey(app.app_id);
    const revoked = store.revokeKey(key.key_id);
    expect(revoked.revoked_at).toBe('2025-06-01T12:00:00.000Z');
    expect(store.verifyKey(key.app_key)).toEqual({ ok: false, reason: 'revoked' });
    expect(store.verifyKey(other.app_key).ok).toBe(true);
    clock += 60_000;
    expect(store.revokeKey(key.key_id).revoked_at).toBe(revoked.revoked_at);
  });

  it('revokes by display prefix; unknown is not_found, an ambiguous prefix is bad_request', () => {
    const { app } = store.createApp('acme');
    const key = store.createKey(app.app_id);
    expect(store.revokeKey(key.prefix).key_id).toBe(key.key_id);
    expect(() => store.revokeKey('key_nope')).toThrow(expect.objectContaining({ id: 'not_found' }));
    const twin = store.createKey(app.app_id);
    db.prepare('UPDATE app_keys SET prefix = ?').run('shared');
    expect(() => store.revokeKey('shared')).toThrow(expect.objectContaining({ id: 'bad_request' }));
    expect(store.revokeKey(twin.key_id).revoked_at).not.toBeNull();
  });

  it('lists keys newest first with their app names and no secrets', () => {
    const a = store.createApp('a').app;
    const k1 = store.createKey(a.app_id);
    clock += 1000;
    const k2 = store.createKey(a.app_id);
    const list = store.listKeys();
    expect(list.map((k) => k.key_id)).toEqual([k2.key_id, k1.key_id]);
    expect(list[0]).toEqual({
      key_id: k2.key_id,
      app_id: a.app_id,
      app_name: 'a',
      prefix: k2.prefix,
      created_at: '2025-06-01T12:00:01.000Z',
      revoked_at: null,
    });
    expect(JSON.stringify(list)).not.toContain(k1.app_key);
  });
});
