import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { folio } from '../support/folio-cli.js';

// `folio keys` against a real appliance (no workers: keys need only HTTP and SQLite), with the
// keys it makes checked on POST /v3/app-tokens over a real port.
describe('folio keys', () => {
  let app: ApplianceProcess;
  const run = (...args: string[]) => folio(args, { FOLIO_URL: app.url });
  const appTokens = (appKey: string) => fetch(`${app.url}/v3/app-tokens`, { method: 'POST', headers: { app_key: appKey } });
  const issued: string[] = [];

  beforeAll(async () => {
    // info, so the request log is there to be searched for keys.
    app = await spawnAppliance({ FOLIO_SPAWN_WORKERS: 'false', FOLIO_LOG_LEVEL: 'info' }, { waitHealthy: false });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('creates the app and a key, prints the key once with a warning, and the key gets app tokens', async () => {
    const created = await run('keys', 'create', '--app', 'billing');
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toMatch(/only time the key is shown/);
    const appKey = created.stdout.match(/^app_key\s+(\S+)$/m)?.[1];
    const appId = created.stdout.match(/^app_id\s+(\S+)$/m)?.[1];
    expect(appKey).toMatch(/^app_[0-9a-f]{16}_[0-9a-f]{64}$/);
    expect(appKey!.startsWith(`${appId}_`)).toBe(true);
    issued.push(appKey!);

    const res = await appTokens(appKey!);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ app_token: expect.any(String), app_token_expires_at: expect.any(Number) });
  });

  it('reuses an app given by name or by id, and makes a new key each time', async () => {
    const first = JSON.parse((await run('keys', 'create', '--app', 'reports', '--json')).stdout);
    const byName = JSON.parse((await run('keys', 'create', '--app', 'reports', '--json')).stdout);
    const byId = await run('keys', 'create', '--app', first.app_id, '--json');
    expect(byId.code, byId.stderr).toBe(0);
    const third = JSON.parse(byId.stdout);
    expect(new Set([first.app_id, byName.app_id, third.app_id]).size).toBe(1);
    expect(new Set([first.app_key, byName.app_key, third.app_key]).size).toBe(3);
    issued.push(first.app_key, byName.app_key, third.app_key);
  });

  it('makes the key of an app named "default" without --app', async () => {
    const created = await run('keys', 'create', '--json');
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout);
    issued.push(key.app_key);
    const list = JSON.parse((await run('keys', 'list', '--json')).stdout);
    expect(list.keys.find((k: { key_id: string }) => k.key_id === key.key_id)).toMatchObject({ app_name: 'default', revoked_at: null });
  });

  it('lists keys as a table with prefixes, never the keys', async () => {
    const list = await run('keys', 'list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/^KEY ID\s+APP\s+PREFIX\s+CREATED\s+REVOKED$/);
    expect(list.stdout).toMatch(/^key_[0-9a-f]{16}\s+billing \(app_[0-9a-f]{16}\)\s+app_[0-9a-f]{16}_[0-9a-f]{8}\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\s+-$/m);
    for (const key of issued) expect(list.stdout).not.toContain(key);
  });

  it('revokes a key: the table shows when, and the key is refused from then on', async () => {
    const created = JSON.parse((await run('keys', 'create', '--app', 'short-lived', '--json')).stdout);
    issued.push(created.app_key);
    expect((await appTokens(created.app_key)).status).toBe(200);

    const revoked = await run('keys', 'revoke', created.key_id);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toMatch(new RegExp(`^revoked ${created.key_id} at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$`, 'm'));

    const refused = await appTokens(created.app_key);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: 'unauthorized', error_info: { id: 'unauthorized', message: 'Invalid app_key' } });
    const list = JSON.parse((await run('keys', 'list', '--json')).stdout);
    expect(list.keys.find((k: { key_id: string }) => k.key_id === created.key_id).revoked_at).toEqual(expect.any(String));
  });

  it('fails with exit 1 and the error for an unknown key or app id', async () => {
    const unknown = await run('keys', 'revoke', 'key_0000000000000000');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('error not_found');
    const json = await run('keys', 'revoke', 'key_0000000000000000', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ error: 'not_found' });
    const noApp = await run('keys', 'create', '--app', 'app_0000000000000000');
    expect(noApp.code).toBe(1);
    expect(noApp.stderr).toContain('error not_found');
    expect(noApp.stderr).not.toContain('only time the key is shown');
  });

  it('never writes a key to the appliance log', () => {
    expect(issued.length).toBeGreaterThan(4);
    expect(app.output()).toContain('"msg":"request"');
    for (const key of issued) expect(app.output()).not.toContain(key);
  });
});
