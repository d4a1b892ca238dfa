import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db.js';
import { AppKeyStore, hashCredential, type VerifiedKey } from './keys.js';
import { AppTokens, parseTokenRequest } from './tokens.js';

describe('parseTokenRequest (spec 4.1)', () => {
  it('defaults to 300 seconds without a strokes session when there is no body', () => {
    expect(parseTokenRequest(undefined)).toEqual({ strokesSession: false, expiresSeconds: 300 });
    expect(parseTokenRequest({})).toEqual({ strokesSession: false, expiresSeconds: 300 });
  });

  it('accepts 30 to 43200 seconds, and 30 to 300 with a strokes session', () => {
    for (const expires of [30, 30.5, 300, 43_200]) expect(parseTokenRequest({ expires }).expiresSeconds).toBe(expires);
    for (const expires of [30, 300])
      expect(parseTokenRequest({ expires, include_strokes_session_id: true })).toEqual({ strokesSession: true, expiresSeconds: expires });
  });

  it.each([
    [{ expires: 29 }],
    [{ expires: 43_201 }],
    [{ expires: 0 }],
    [{ expires: -1 }],
    [{ expires: '300' }],
    [{ expires: null }],
    [{ expires: Number.NaN }],
    [{ expires: 301, include_strokes_session_id: true }],
    [{ expires: 29, include_strokes_session_id: true }],
    [{ include_strokes_session_id: 'true' }],
    [{ include_strokes_session_id: 1 }],
  ])('refuses %j with bad_request', (body) => {
    expect(() => parseTokenRequest(body as Record<string, unknown>)).toThrow(expect.objectContaining({ id: 'bad_request' }));
  });
});

describe('AppTokens', () => {
  let db: Database.Database;
  let clock: number;
  let keys: AppKeyStore;
  let tokens: AppTokens;
  let key: VerifiedKey;
  let keyId: string;
  beforeEach(() => {
    db = openDatabase(':memory:');
    clock = Date.parse('2025-06-01T12:00:00Z');
    keys = new AppKeyStore({ db, now: () => clock });
    tokens = new AppTokens({ db, now: () => clock });
    const created = keys.createKey(keys.createApp('acme').app.app_id);
    keyId = created.key_id;
    const check = keys.verifyKey(created.app_key);
    if (!check.ok) throw new Error('key');
    key = check.key;
  });
  afterEach(() => db.close());

  it('issues a random token that expires at now + expires, stored only as a hash', () => {
    const t = tokens.issue(key, { strokesSession: false, expiresSeconds: 60 });
    expect(t.app_token).toMatch(/^token_[0-9a-f]{64}$/);
    expect(t.app_token_expires_at).toBe(clock + 60_000);
    expect(t).not.toHaveProperty('strokes_session_id');
    const rows = db.prepare('SELECT * FROM app_tokens').all() as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(hashCredential(t.app_token));
    expect(JSON.stringify(rows)).not.toContain(t.app_token);
    expect(tokens.issue(key, { strokesSession: false, expiresSeconds: 60 }).app_token).not.toBe(t.app_token);
  });

  it('is valid until its expiry time and expired from then on (moved clock)', () => {
    const t = tokens.issue(key, { strokesSession: false, expiresSeconds: 300 });
    expect(tokens.verify(t.app_token)).toMatchObject({ ok: true, token: { appId: key.appId, keyId, strokesSessionId: null } });
    clock += 300_000 - 1;
    expect(tokens.verify(t.app_token).ok).toBe(true);
    clock += 1;
    expect(tokens.verify(t.app_token)).toEqual({ ok: false, reason: 'expired' });
  });

  it('carries a strokes session id when asked', () => {
    const t = tokens.issue(key, { strokesSession: true, expiresSeconds: 120 });
    expect(t.strokes_session_id).toMatch(/^strokes_[0-9a-f]{32}$/);
    expect(tokens.verify(t.app_token)).toMatchObject({ ok: true, token: { strokesSessionId: t.strokes_session_id } });
  });

  it('refuses an unknown token and the tokens of a revoked key', () => {
    expect(tokens.verify('0'.repeat(64))).toEqual({ ok: false, reason: 'unknown' });
    expect(tokens.verify('x'.repeat(500))).toEqual({ ok: false, reason: 'unknown' });
    const t = tokens.issue(key, { strokesSession: false, expiresSeconds: 300 });
    keys.revokeKey(keyId);
    expect(tokens.verify(t.app_token)).toEqual({ ok: false, reason: 'revoked' });
  });

  it('drops expired tokens when issuing new ones', () => {
    tokens.issue(key, { strokesSession: false, expiresSeconds: 30 });
    clock += 31_000;
    tokens.issue(key, { strokesSession: false, expiresSeconds: 30 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM app_tokens').get()).toEqual({ n: 1 });
  });
});
