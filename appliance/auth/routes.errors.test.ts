import { describe, expect, it } from 'vitest';
import { authTestApp } from '../../test/support/auth-app.js';

const unauthorized = (message: string) => ({ status: 401, body: { error: 'unauthorized', error_info: { id: 'unauthorized', message } } });

describe('operator key routes: errors', () => {
  it.each([
    ['no body', undefined],
    ['not JSON', '{name'],
    ['an array', '[]'],
    ['no name', { group: 'x' }],
    ['a number name', { name: 7 }],
    ['an empty name', { name: '  ' }],
    ['a bad group_id', { name: 'acme', group_id: 'a b' }],
  ])('POST /pco/v1/apps with %s is 400 bad_request', async (_what, body) => {
    const { call } = authTestApp();
    const res = await call('POST', '/pco/v1/apps', { body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('bad_request');
  });

  it('POST /pco/v1/apps with a name taken in another group is 409 conflict', async () => {
    const { call } = authTestApp();
    await call('POST', '/pco/v1/apps', { body: { name: 'acme' } });
    expect((await call('POST', '/pco/v1/apps', { body: { name: 'acme', group_id: 'other' } })).body.error).toBe('conflict');
  });

  it('a key for an unknown app and the revocation of an unknown key are 404 not_found', async () => {
    const { call } = authTestApp();
    expect(await call('POST', '/pco/v1/apps/app_nope/keys')).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect(await call('DELETE', '/pco/v1/keys/key_nope')).toMatchObject({ status: 404, body: { error: 'not_found' } });
  });
});

describe('POST /v3/app-tokens: errors', () => {
  it('answers 401 Missing app_key without a key, and Invalid app_key for a wrong one', async () => {
    const { call, newKey } = authTestApp();
    const key = await newKey();
    expect(await call('POST', '/v3/app-tokens')).toMatchObject(unauthorized('Missing app_key'));
    expect(await call('POST', '/v3/app-tokens', { headers: { app_key: `${key.app_id}_${'0'.repeat(64)}` } })).toMatchObject(unauthorized('Invalid app_key'));
    expect(await call('POST', '/v3/app-tokens', { headers: { app_key: 'garbage' } })).toMatchObject(unauthorized('Invalid app_key'));
  });

  it('answers 401 when the app_id header names another app', async () => {
    const { call, newKey } = authTestApp();
    const a = await newKey('a');
    const b = await newKey('b');
    expect(await call('POST', '/v3/app-tokens', { headers: { app_key: a.app_key, app_id: b.app_id } })).toMatchObject(
      unauthorized('app_id does not match app_key'),
    );
  });

  it.each([
    [{ expires: 29 }],
    [{ expires: 43_201 }],
    [{ expires: '60' }],
    [{ expires: 301, include_strokes_session_id: true }],
    [{ include_strokes_session_id: 'yes' }],
    ['not json'],
    [[30]],
  ])('answers 400 bad_request for the body %j', async (body) => {
    const { call, newKey } = authTestApp();
    const key = await newKey();
    const res = await call('POST', '/v3/app-tokens', { headers: { app_key: key.app_key }, body });
    expect(res.status).toBe(400);
    expect(res.body.error_info).toMatchObject({ id: 'bad_request' });
  });

  it('checks the key before the body: a bad body without a key is 401', async () => {
    const { call } = authTestApp();
    expect((await call('POST', '/v3/app-tokens', { body: { expires: 1 } })).status).toBe(401);
  });
});

describe('middlewares: errors', () => {
  it('requireAppKey answers Missing app_key, Missing app_id and Invalid app_key', async () => {
    const { call, newKey } = authTestApp();
    const key = await newKey();
    expect(await call('GET', '/probe/key')).toMatchObject(unauthorized('Missing app_key'));
    expect(await call('GET', '/probe/key', { headers: { app_key: key.app_key } })).toMatchObject(unauthorized('Missing app_id'));
    expect(await call('GET', '/probe/key', { headers: { app_id: key.app_id, app_key: `${key.app_key}x` } })).toMatchObject(unauthorized('Invalid app_key'));
    expect(await call('GET', '/probe/key-only', { headers: { app_key: '' } })).toMatchObject(unauthorized('Missing app_key'));
  });

  it('an expired token is 401 after the clock passes app_token_expires_at', async () => {
    const { call, newKey, newToken, advance } = authTestApp();
    const key = await newKey();
    const { app_token } = await newToken(key.app_key, { expires: 30 });
    expect((await call('GET', '/probe/text', { headers: { app_token } })).status).toBe(200);
    advance(30_000);
    expect(await call('GET', '/probe/text', { headers: { app_token } })).toMatchObject(unauthorized('Expired app_token'));
  });

  it('an unknown token is 401 Invalid app_token; no credentials at all is Missing app_key', async () => {
    const { call } = authTestApp();
    expect(await call('GET', '/probe/text', { headers: { app_token: 'f'.repeat(64) } })).toMatchObject(unauthorized('Invalid app_token'));
    expect(await call('GET', '/probe/text')).toMatchObject(unauthorized('Missing app_key'));
  });

  it('the strokes route refuses a token without its session, with another session, or made without one', async () => {
    const { call, newKey, newToken } = authTestApp();
    const key = await newKey();
    const session = await newToken(key.app_key, { include_strokes_session_id: true });
    const plain = await newToken(key.app_key);
    expect(await call('GET', '/probe/strokes', { headers: { app_token: session.app_token } })).toMatchObject(unauthorized('Missing strokes_session_id'));
    expect(await call('GET', '/probe/strokes', { headers: { app_token: session.app_token, strokes_session_id: crypto.randomUUID() } })).toMatchObject(
      unauthorized('Invalid strokes_session_id'),
    );
    expect(await call('GET', '/probe/strokes', { headers: { app_token: plain.app_token, strokes_session_id: session.strokes_session_id! } })).toMatchObject(
      unauthorized('Invalid strokes_session_id'),
    );
  });
});
