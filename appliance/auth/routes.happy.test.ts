import { describe, expect, it } from 'vitest';
import { authTestApp } from '../../test/support/auth-app.js';

describe('operator key routes (/pco/v1 extension)', () => {
  it('creates an app (201), and answers 200 with the same app for its name again', async () => {
    const { call } = authTestApp();
    const first = await call('POST', '/pco/v1/apps', { body: { name: 'acme' } });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      app_id: expect.stringMatching(/^app_[0-9a-f]{16}$/),
      name: 'acme',
      group_id: 'default',
      created_at: '2025-06-01T12:00:00.000Z',
    });
    const again = await call('POST', '/pco/v1/apps', { body: { name: 'acme' } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it('creates a key (201) shown with its key_id and prefix; the list shows it without the key', async () => {
    const { call } = authTestApp();
    const { body: app } = await call('POST', '/pco/v1/apps', { body: { name: 'acme', group_id: 'team-1' } });
    expect(app.group_id).toBe('team-1');
    const created = await call('POST', `/pco/v1/apps/${app.app_id}/keys`);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      app_key: expect.stringMatching(new RegExp(`^${app.app_id}_[0-9a-f]{64}$`)),
      key_id: expect.stringMatching(/^key_[0-9a-f]{16}$/),
      prefix: expect.stringMatching(new RegExp(`^${app.app_id}_[0-9a-f]{8}$`)),
      app_id: app.app_id,
      created_at: '2025-06-01T12:00:00.000Z',
      revoked_at: null,
    });
    const list = await call('GET', '/pco/v1/keys');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      keys: [
        {
          key_id: created.body.key_id,
          app_id: app.app_id,
          app_name: 'acme',
          prefix: created.body.prefix,
          created_at: created.body.created_at,
          revoked_at: null,
        },
      ],
    });
    expect(list.text).not.toContain(created.body.app_key);
  });

  it('revokes a key by key_id or prefix, and again without changing revoked_at', async () => {
    const { call, newKey, advance } = authTestApp();
    const a = await newKey();
    const b = await newKey();
    const revoked = await call('DELETE', `/pco/v1/keys/${a.key_id}`);
    expect(revoked).toMatchObject({ status: 200, body: { key_id: a.key_id, revoked_at: '2025-06-01T12:00:00.000Z' } });
    advance(5000);
    expect((await call('DELETE', `/pco/v1/keys/${a.key_id}`)).body.revoked_at).toBe('2025-06-01T12:00:00.000Z');
    expect((await call('DELETE', `/pco/v1/keys/${b.prefix}`)).body).toEqual({ key_id: b.key_id, revoked_at: '2025-06-01T12:00:05.000Z' });
    const { body } = await call('GET', '/pco/v1/keys');
    expect(body.keys.every((k: { revoked_at: string | null }) => k.revoked_at !== null)).toBe(true);
  });
});

describe('POST /v3/app-tokens (spec 4.1)', () => {
  it('issues a 300-second token with app_key alone and no body', async () => {
    const { call, newKey, now } = authTestApp();
    const key = await newKey();
    const res = await call('POST', '/v3/app-tokens', { headers: { app_key: key.app_key } });
    expect(res.status).toBe(200);
    // Id shapes as the official client checks them: token_…, strokes_… (docs/client-compat.md).
    expect(res.body).toEqual({ app_token: expect.stringMatching(/^token_[0-9a-f]{64}$/), app_token_expires_at: now() + 300_000 });
  });

  it('honours expires and returns a strokes_session_id when asked', async () => {
    const { newKey, newToken, now } = authTestApp();
    const key = await newKey();
    expect((await newToken(key.app_key, { expires: 43_200 })).app_token_expires_at).toBe(now() + 43_200_000);
    const strokes = await newToken(key.app_key, { include_strokes_session_id: true, expires: 60 });
    expect(strokes).toEqual({
      app_token: expect.any(String),
      app_token_expires_at: now() + 60_000,
      strokes_session_id: expect.stringMatching(/^strokes_[0-9a-f]{32}$/),
    });
  });

  it("GET and DELETE /v3/app-tokens/{token} show and end a token of the caller's group; after that, token_unknown", async () => {
    const { call, newKey, newToken, now } = authTestApp();
    const key = await newKey();
    const { body: otherApp } = await call('POST', '/pco/v1/apps', { body: { name: 'elsewhere', group_id: 'group-b' } });
    const other = (await call('POST', `/pco/v1/apps/${otherApp.app_id}/keys`)).body as { app_key: string };
    const { app_token } = await newToken(key.app_key, { user_id: 'user-7', include_strokes_session_id: true });
    const shown = await call('GET', `/v3/app-tokens/${app_token}`, { headers: { app_key: key.app_key } });
    expect(shown).toMatchObject({
      status: 200,
      body: {
        app_token,
        app_token_expires_at: now() + 300_000,
        app_id: key.app_id,
        group_id: 'default',
        user_id: 'user-7',
        strokes_session_id: expect.stringMatching(/^strokes_/),
      },
    });
    expect((await call('GET', `/v3/app-tokens/${app_token}`, {})).status).toBe(401);
    const ended = await call('DELETE', `/v3/app-tokens/${app_token}`, { headers: { app_key: key.app_key } });
    expect(ended).toMatchObject({ status: 200, body: { app_token, app_id: key.app_id, group_id: 'default', user_id: 'user-7' } });
    for (const method of ['GET', 'DELETE']) {
      const gone = await call(method, `/v3/app-tokens/${app_token}`, { headers: { app_key: key.app_key } });
      expect([gone.status, gone.body.error, gone.body.error_info.id]).toEqual([200, 'token_unknown', 'token_unknown']);
    }
    // The ended token no longer authenticates.
    expect((await call('GET', '/probe/text', { headers: { app_token } })).status).toBe(401);
    // Another group's live token is not this caller's to see or end.
    const theirs = (await newToken(other.app_key)).app_token;
    expect((await call('GET', `/v3/app-tokens/${theirs}`, { headers: { app_key: key.app_key } })).body.error).toBe('token_unknown');
    expect((await call('DELETE', `/v3/app-tokens/${theirs}`, { headers: { app_key: key.app_key } })).body.error).toBe('token_unknown');
    expect((await call('GET', `/v3/app-tokens/${theirs}`, { headers: { app_key: other.app_key } })).body.app_token).toBe(theirs);
    expect((await call('POST', '/v3/app-tokens', { headers: { app_key: key.app_key }, body: { user_id: 7 } })).body.error_info.field).toBe('user_id');
  });

  it('accepts an app_id header that matches the key', async () => {
    const { call, newKey } = authTestApp();
    const key = await newKey();
    expect((await call('POST', '/v3/app-tokens', { headers: { app_key: key.app_key, app_id: key.app_id } })).status).toBe(200);
  });
});

describe('middlewares (spec part 5)', () => {
  it('requireAppKey sets auth from app_id + app_key', async () => {
    const { call, newKey } = authTestApp();
    const key = await newKey();
    const res = await call('GET', '/probe/key', { headers: { app_id: key.app_id, app_key: key.app_key } });
    expect(res).toMatchObject({ status: 200, body: { appId: key.app_id, keyId: key.key_id, groupId: 'default', via: 'key' } });
    expect((await call('GET', '/probe/key-only', { headers: { app_key: key.app_key } })).body.via).toBe('key');
  });

  it('requireKeyOrToken takes app_id + app_key, or an app token', async () => {
    const { call, newKey, newToken } = authTestApp();
    const key = await newKey();
    expect((await call('GET', '/probe/text', { headers: { app_id: key.app_id, app_key: key.app_key } })).body.via).toBe('key');
    const { app_token } = await newToken(key.app_key);
    const res = await call('GET', '/probe/text', { headers: { app_token } });
    expect(res).toMatchObject({ status: 200, body: { appId: key.app_id, keyId: key.key_id, via: 'token' } });
  });

  it('the strokes route takes a token with the strokes_session_id it was issued with', async () => {
    const { call, newKey, newToken } = authTestApp();
    const key = await newKey();
    const t = await newToken(key.app_key, { include_strokes_session_id: true });
    const res = await call('GET', '/probe/strokes', { headers: { app_token: t.app_token, strokes_session_id: t.strokes_session_id! } });
    expect(res).toMatchObject({ status: 200, body: { via: 'token', strokesSessionId: t.strokes_session_id } });
    expect((await call('GET', '/probe/strokes', { headers: { app_id: key.app_id, app_key: key.app_key } })).status).toBe(200);
  });
});
