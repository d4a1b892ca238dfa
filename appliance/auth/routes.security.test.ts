import { beforeEach, describe, expect, it, vi } from 'vitest';
import { authTestApp } from '../../test/support/auth-app.js';
import { hashCredential } from './keys.js';

// safeEqual wrapped in a spy, so the tests can see every credential comparison go through it.
vi.mock('../../core/ids.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../core/ids.js')>();
  return { ...actual, safeEqual: vi.fn(actual.safeEqual) };
});
const { safeEqual } = await import('../../core/ids.js');

describe('auth security', () => {
  beforeEach(() => {
    vi.mocked(safeEqual).mockClear();
  });

  it('never writes keys, tokens or strokes session ids to the logs, even at debug', async () => {
    const { call, newKey, newToken, logs, ctx } = authTestApp({ logLevel: 'debug' });
    const key = await newKey();
    const other = await newKey('other');
    const token = await newToken(key.app_key, { include_strokes_session_id: true });
    const wrongKey = `${key.app_id}_${'a'.repeat(64)}`;
    await call('GET', '/probe/key', { headers: { app_id: key.app_id, app_key: key.app_key } });
    await call('GET', '/probe/key', { headers: { app_id: other.app_id, app_key: key.app_key } });
    await call('GET', '/probe/key', { headers: { app_id: key.app_id, app_key: wrongKey } });
    await call('GET', '/probe/key', { headers: { app_token: token.app_token } });
    await call('GET', '/probe/strokes', { headers: { app_token: token.app_token, strokes_session_id: token.strokes_session_id! } });
    await call('GET', '/probe/strokes', { headers: { app_token: token.app_token, strokes_session_id: 'not-the-session' } });
    await call('DELETE', `/pco/v1/keys/${key.key_id}`);
    await call('POST', '/v3/app-tokens', { headers: { app_key: key.app_key } });
    // Whoever logs a request's headers later: core/logging.ts redacts the credential headers read here.
    ctx.logger.info({ headers: { app_key: key.app_key, app_token: token.app_token }, req: { headers: { app_key: other.app_key } } }, 'headers');

    const out = logs();
    expect(out).toContain('credentials refused');
    expect(out).toContain('[redacted]');
    for (const secret of [key.app_key, other.app_key, wrongKey, token.app_token, token.strokes_session_id!, 'not-the-session']) {
      expect(out).not.toContain(secret);
    }
    // Not even the secret part of a key, nor the hashes the store keeps.
    expect(out).not.toContain(key.app_key.slice(key.app_id.length + 1, key.app_id.length + 17));
    expect(out).not.toContain(hashCredential(key.app_key));
  });

  it('compares key hashes with the timing-safe safeEqual, every candidate of the app', async () => {
    const { call, newKey, ctx } = authTestApp();
    const key = await newKey();
    await call('POST', `/pco/v1/apps/${key.app_id}/keys`); // a second key of the same app
    vi.mocked(safeEqual).mockClear();
    const wrong = `${key.app_id}_${'b'.repeat(64)}`;
    expect((await call('GET', '/probe/key-only', { headers: { app_key: wrong } })).status).toBe(401);
    const calls = vi.mocked(safeEqual).mock.calls;
    expect(calls).toHaveLength(2);
    for (const [, presented] of calls) expect(presented).toBe(hashCredential(wrong));
    const stored = (ctx.db.prepare('SELECT key_hash FROM app_keys').all() as { key_hash: string }[]).map((r) => r.key_hash).sort();
    expect(calls.map(([s]) => s).sort()).toEqual(stored);
  });

  it('compares token hashes and strokes session ids with safeEqual', async () => {
    const { call, newKey, newToken } = authTestApp();
    const key = await newKey();
    const t = await newToken(key.app_key, { include_strokes_session_id: true });
    vi.mocked(safeEqual).mockClear();
    await call('GET', '/probe/strokes', { headers: { app_token: t.app_token, strokes_session_id: t.strokes_session_id! } });
    expect(safeEqual).toHaveBeenCalledWith(hashCredential(t.app_token), hashCredential(t.app_token));
    expect(safeEqual).toHaveBeenCalledWith(t.strokes_session_id, t.strokes_session_id);
  });

  it('an app token cannot call a key-only route, nor mint more tokens', async () => {
    const { call, newKey, newToken } = authTestApp();
    const key = await newKey();
    const { app_token } = await newToken(key.app_key);
    for (const path of ['/probe/key', '/probe/key-only']) {
      const res = await call('GET', path, { headers: { app_id: key.app_id, app_token } });
      expect(res).toMatchObject({ status: 401, body: { error: 'unauthorized', error_info: { message: 'Missing app_key' } } });
    }
    expect((await call('POST', '/v3/app-tokens', { headers: { app_token } })).status).toBe(401);
    // A token passed where the key goes is not a key either.
    expect((await call('POST', '/v3/app-tokens', { headers: { app_key: app_token } })).status).toBe(401);
  });

  it('refuses a revoked key everywhere, and the tokens it made', async () => {
    const { call, newKey, newToken } = authTestApp();
    const key = await newKey();
    const { app_token } = await newToken(key.app_key);
    await call('DELETE', `/pco/v1/keys/${key.key_id}`);
    const invalid = { status: 401, body: { error: 'unauthorized', error_info: { message: 'Invalid app_key' } } };
    expect(await call('POST', '/v3/app-tokens', { headers: { app_key: key.app_key } })).toMatchObject(invalid);
    expect(await call('GET', '/probe/key', { headers: { app_id: key.app_id, app_key: key.app_key } })).toMatchObject(invalid);
    expect(await call('GET', '/probe/text', { headers: { app_id: key.app_id, app_key: key.app_key } })).toMatchObject(invalid);
    expect(await call('GET', '/probe/text', { headers: { app_token } })).toMatchObject({ status: 401, body: { error_info: { message: 'Invalid app_token' } } });
  });

  it('a valid key with an invalid token beside it is judged by the key; an invalid key is not rescued by a token', async () => {
    const { call, newKey, newToken } = authTestApp();
    const key = await newKey();
    const { app_token } = await newToken(key.app_key);
    const bad = await call('GET', '/probe/text', { headers: { app_id: key.app_id, app_key: 'wrong_key', app_token } });
    expect(bad.status).toBe(401);
  });

  it('the display prefix is not a key', async () => {
    const { call, newKey } = authTestApp();
    const key = await newKey();
    expect((await call('GET', '/probe/key-only', { headers: { app_key: key.prefix } })).status).toBe(401);
  });

  it('keeps no key or token in the database, only their hashes', async () => {
    const { newKey, newToken, ctx } = authTestApp();
    const key = await newKey();
    const t = await newToken(key.app_key);
    const dump = JSON.stringify([...ctx.db.prepare('SELECT * FROM app_keys').all(), ...ctx.db.prepare('SELECT * FROM app_tokens').all()]);
    expect(dump).not.toContain(key.app_key);
    expect(dump).not.toContain(t.app_token);
    expect(dump).toContain(hashCredential(key.app_key));
    expect(dump).toContain(hashCredential(t.app_token));
  });
});
