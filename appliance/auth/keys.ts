import type Database from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import { ApiError } from '../../core/errors.js';
import { randomId, safeEqual } from '../../core/ids.js';

/** Random bytes of a key's secret part, written as hex after `<app_id>_`. */
export const KEY_SECRET_BYTES = 32;
/** Hex digits of the secret kept in the display prefix: 32 of 256 bits, enough to tell keys apart. */
export const KEY_PREFIX_HEX = 8;
/** The group of apps created without one: an appliance serves one organisation unless told otherwise. */
export const DEFAULT_GROUP_ID = 'default';
const APP_NAME_MAX = 100;
/** Longer than any key this store makes; refused before hashing. */
const APP_KEY_MAX = 256;

export interface App {
  app_id: string;
  name: string;
  group_id: string;
  created_at: string;
}

/** A key as the operator surface shows it: never the key itself, nor its hash. */
export interface KeyRecord {
  key_id: string;
  app_id: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}

/** A key just made: the only moment `app_key` exists outside the caller's hands. */
export interface CreatedKey extends KeyRecord {
  app_key: string;
}

/** Who a verified key speaks for. */
export interface VerifiedKey {
  keyId: string;
  appId: string;
  groupId: string;
}

export type KeyCheck = { ok: true; key: VerifiedKey } | { ok: false; reason: 'unknown' | 'revoked' | 'app_mismatch' };

/** sha256 hex of a credential: what the store keeps instead of keys and tokens. */
export function hashCredential(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** The app id a key names (`<app_id>_<hex>`), or null when the key has no such shape. */
export function appIdOfKey(appKey: string): string | null {
  const sep = appKey.lastIndexOf('_');
  return sep > 0 ? appKey.slice(0, sep) : null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Apps and their keys (spec part 5) in the appliance's SQLite ledger. A key is shown once, at
 * creation; the store keeps its sha256 hash and a short display prefix, and revocation is final.
 */
export class AppKeyStore {
  private readonly db: Database.Database;
  private readonly now: () => number;

  constructor(opts: { db: Database.Database; /** @default Date.now */ now?: () => number }) {
    this.db = opts.db;
    this.now = opts.now ?? Date.now;
  }

  /**
   * Creates an app, or returns the one already named `name` (`created` false). Names are unique;
   * the same name in another group is a conflict.
   */
  createApp(name: string, groupId: string = DEFAULT_GROUP_ID): { app: App; created: boolean } {
    const clean = name.trim();
    if (!clean || clean.length > APP_NAME_MAX || /[\u0000-\u001f\u007f]/.test(clean)) {
      throw new ApiError('bad_request', `name must be 1 to ${APP_NAME_MAX} printable characters`, { field: 'name' });
    }
    const existing = this.findAppByName(clean);
    if (existing) {
      if (existing.group_id !== groupId) throw new ApiError('conflict', `An app named ${clean} exists in another group`);
      return { app: existing, created: false };
    }
    const app: App = { app_id: randomId('app_', 8), name: clean, group_id: groupId, created_at: iso(this.now()) };
    this.db.prepare('INSERT INTO apps (app_id, name, group_id, created_at) VALUES (@app_id, @name, @group_id, @created_at)').run(app);
    return { app, created: true };
  }

  findApp(appId: string): App | null {
    return (this.db.prepare('SELECT * FROM apps WHERE app_id = ?').get(appId) as App | undefined) ?? null;
  }

  findAppByName(name: string): App | null {
    return (this.db.prepare('SELECT * FROM apps WHERE name = ?').get(name) as App | undefined) ?? null;
  }

  /** Makes a key `<app_id>_<64 hex>` for the app; 404 not_found when the app does not exist. */
  createKey(appId: string): CreatedKey {
    if (!this.findApp(appId)) throw new ApiError('not_found', `No app ${appId}`);
    const secret = randomBytes(KEY_SECRET_BYTES).toString('hex');
    const appKey = `${appId}_${secret}`;
    const record: KeyRecord = {
      key_id: randomId('key_', 8),
      app_id: appId,
      prefix: `${appId}_${secret.slice(0, KEY_PREFIX_HEX)}`,
      created_at: iso(this.now()),
      revoked_at: null,
    };
    this.db
      .prepare('INSERT INTO app_keys (key_id, app_id, key_hash, prefix, created_at) VALUES (@key_id, @app_id, @key_hash, @prefix, @created_at)')
      .run({ ...record, key_hash: hashCredential(appKey) });
    return { ...record, app_key: appKey };
  }

  /** Every key, newest first, with its app's name. */
  listKeys(): (KeyRecord & { app_name: string })[] {
    return this.db
      .prepare(
        `SELECT k.key_id, k.app_id, a.name AS app_name, k.prefix, k.created_at, k.revoked_at
         FROM app_keys k JOIN apps a USING (app_id) ORDER BY k.created_at DESC, k.rowid DESC`,
      )
      .all() as (KeyRecord & { app_name: string })[];
  }

  /**
   * Revokes a key named by key_id or by its display prefix; revoking a revoked key changes nothing.
   * 404 not_found when nothing matches, 400 bad_request when a prefix matches several keys.
   */
  revokeKey(keyIdOrPrefix: string): KeyRecord {
    const cols = 'key_id, app_id, prefix, created_at, revoked_at';
    let rows = this.db.prepare(`SELECT ${cols} FROM app_keys WHERE key_id = ?`).all(keyIdOrPrefix) as KeyRecord[];
    if (rows.length === 0) rows = this.db.prepare(`SELECT ${cols} FROM app_keys WHERE prefix = ?`).all(keyIdOrPrefix) as KeyRecord[];
    if (rows.length === 0) throw new ApiError('not_found', `No key ${keyIdOrPrefix}`);
    if (rows.length > 1) throw new ApiError('bad_request', `Prefix ${keyIdOrPrefix} matches ${rows.length} keys; give the key_id`);
    const key = rows[0]!;
    if (key.revoked_at) return key;
    const revokedAt = iso(this.now());
    this.db.prepare('UPDATE app_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL').run(revokedAt, key.key_id);
    return { ...key, revoked_at: revokedAt };
  }

  /**
   * Checks a presented key. Candidates are the keys of the app the key names; each stored hash is
   * compared with the presented key's hash in constant time, all of them, so the answer's timing
   * does not depend on which hash (if any) matched. `appId`, when given, must be the key's app.
   */
  verifyKey(appKey: string, appId?: string): KeyCheck {
    const keyApp = appKey.length <= APP_KEY_MAX ? appIdOfKey(appKey) : null;
    if (!keyApp) return { ok: false, reason: 'unknown' };
    const presented = hashCredential(appKey);
    const rows = this.db
      .prepare('SELECT k.key_id, k.key_hash, k.revoked_at, a.group_id FROM app_keys k JOIN apps a USING (app_id) WHERE k.app_id = ?')
      .all(keyApp) as { key_id: string; key_hash: string; revoked_at: string | null; group_id: string }[];
    let match: (typeof rows)[number] | undefined;
    for (const row of rows) if (safeEqual(row.key_hash, presented)) match = row;
    if (!match) return { ok: false, reason: 'unknown' };
    if (match.revoked_at) return { ok: false, reason: 'revoked' };
    if (appId !== undefined && appId !== keyApp) return { ok: false, reason: 'app_mismatch' };
    return { ok: true, key: { keyId: match.key_id, appId: keyApp, groupId: match.group_id } };
  }
}
