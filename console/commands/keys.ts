import type { Command } from 'commander';
import { contextOf } from '../context.js';
import { ApiFailure, type FolioClient } from '../http.js';
import { type Column, keyValues, table, when } from '../table.js';

/** The app `folio keys create` uses when no --app is given. */
export const DEFAULT_APP_NAME = 'default';
/** The shape of app ids the appliance makes; anything else given to --app is a name. */
const APP_ID = /^app_[0-9a-f]{16}$/;

interface App {
  app_id: string;
  name: string;
  group_id: string;
  created_at: string;
}

interface Key {
  key_id: string;
  app_id: string;
  app_name?: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}

interface CreatedKey extends Key {
  app_key: string;
}

const STORE_WARNING = 'warning: this is the only time the key is shown. Store it in a secret manager now; it cannot be shown again, only revoked and replaced.';

/**
 * `folio keys create|list|revoke`: app keys through the operator routes (POST /pco/v1/apps,
 * POST /pco/v1/apps/{app_id}/keys, GET /pco/v1/keys, DELETE /pco/v1/keys/{key_id}).
 */
export function keysCommand(program: Command): Command {
  const keys = program.command('keys').description('app keys: create (shown once), list, revoke');

  keys
    .command('create')
    .description('create an app key (and the app, when --app names one that does not exist yet)')
    .option('--app <name-or-id>', `app name or app_id (default: an app named "${DEFAULT_APP_NAME}")`)
    .action(async (opts: { app?: string }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const appId = await resolveApp(ctx.client, opts.app ?? DEFAULT_APP_NAME);
      const key = (await ctx.client.call<CreatedKey>('POST', `/pco/v1/apps/${encodeURIComponent(appId)}/keys`)).body;
      // stderr, so `folio keys create --json | jq -r .app_key` captures the key alone.
      process.stderr.write(`${STORE_WARNING}\n`);
      if (ctx.json) return ctx.printJson(key);
      ctx.print(
        keyValues([
          ['app_key', key.app_key],
          ['key_id', key.key_id],
          ['prefix', key.prefix],
          ['app_id', key.app_id],
          ['created', when(key.created_at)],
        ]),
      );
    });

  keys
    .command('list')
    .description('every key, newest first: id, app, display prefix, created and revoked times (never the key)')
    .action(async (_opts, cmd: Command) => {
      const ctx = contextOf(cmd);
      const body = (await ctx.client.call<{ keys: Key[] }>('GET', '/pco/v1/keys')).body;
      if (ctx.json) return ctx.printJson(body);
      if (body.keys.length === 0) return ctx.print('no app keys yet; create one with `folio keys create --app NAME`');
      const columns: Column<Key>[] = [
        { header: 'KEY ID', value: (k) => k.key_id },
        { header: 'APP', value: (k) => (k.app_name ? `${k.app_name} (${k.app_id})` : k.app_id) },
        { header: 'PREFIX', value: (k) => k.prefix },
        { header: 'CREATED', value: (k) => when(k.created_at) },
        { header: 'REVOKED', value: (k) => when(k.revoked_at) },
      ];
      ctx.print(table(body.keys, columns));
    });

  keys
    .command('revoke')
    .description('revoke a key for good (its app tokens stop working too)')
    .argument('<key-id>', 'key_id (or display prefix) from `folio keys list`')
    .action(async (keyId: string, _opts, cmd: Command) => {
      const ctx = contextOf(cmd);
      const body = (await ctx.client.call<{ key_id: string; revoked_at: string }>('DELETE', `/pco/v1/keys/${encodeURIComponent(keyId)}`)).body;
      if (ctx.json) return ctx.printJson(body);
      ctx.print(`revoked ${body.key_id} at ${when(body.revoked_at)}`);
    });

  return keys;
}

/** The app_id for --app: an app id as it is, a name created when absent (POST /pco/v1/apps returns an existing one). */
async function resolveApp(client: FolioClient, app: string): Promise<string> {
  if (APP_ID.test(app)) return app;
  try {
    return (await client.call<App>('POST', '/pco/v1/apps', { body: { name: app } })).body.app_id;
  } catch (err) {
    if (err instanceof ApiFailure && err.id === 'conflict')
      throw new ApiFailure(err.id, `${err.detail}; give its app_id instead`, err.status, err.body, err.requestId);
    throw err;
  }
}
