import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** Schema steps, applied in order once each; append, never edit. */
const MIGRATIONS: string[] = [
  `CREATE TABLE usage_days (
     day TEXT PRIMARY KEY,
     pages_billable INTEGER NOT NULL DEFAULT 0, images_billable INTEGER NOT NULL DEFAULT 0,
     documents_billable INTEGER NOT NULL DEFAULT 0, pages_completed INTEGER NOT NULL DEFAULT 0,
     pages_failed INTEGER NOT NULL DEFAULT 0, documents_completed INTEGER NOT NULL DEFAULT 0,
     documents_failed INTEGER NOT NULL DEFAULT 0, images_completed INTEGER NOT NULL DEFAULT 0,
     images_failed INTEGER NOT NULL DEFAULT 0, reported_at TEXT
   );
   CREATE TABLE usage_events (event_id TEXT PRIMARY KEY, day TEXT NOT NULL, applied_at TEXT NOT NULL);
   CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  // Webhooks: signing secrets per scope ('pco' = the deployment) and one row per notification.
  `CREATE TABLE webhook_secrets (
     key TEXT PRIMARY KEY, secret TEXT NOT NULL, previous_secret TEXT,
     previous_secret_expires_at INTEGER, updated_at TEXT NOT NULL
   );
   CREATE TABLE webhook_deliveries (
     id TEXT PRIMARY KEY, scope TEXT NOT NULL, dedupe_key TEXT NOT NULL UNIQUE,
     job_id TEXT, file_id TEXT, event TEXT NOT NULL, url TEXT NOT NULL,
     headers TEXT NOT NULL DEFAULT '{}', payload TEXT NOT NULL,
     status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
     attempts INTEGER NOT NULL DEFAULT 0, last_http_status INTEGER, last_error TEXT,
     next_attempt_at TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL
   );
   CREATE INDEX webhook_deliveries_job ON webhook_deliveries (job_id, created_at);
   CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (status) WHERE status = 'pending';`,
  // App keys (spec part 5): apps, their keys stored only as sha256 hashes, and app tokens (4.1), hashed too.
  `CREATE TABLE apps (
     app_id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, group_id TEXT NOT NULL, created_at TEXT NOT NULL
   );
   CREATE TABLE app_keys (
     key_id TEXT PRIMARY KEY, app_id TEXT NOT NULL REFERENCES apps (app_id),
     key_hash TEXT NOT NULL UNIQUE, prefix TEXT NOT NULL, created_at TEXT NOT NULL, revoked_at TEXT
   );
   CREATE INDEX app_keys_app ON app_keys (app_id);
   CREATE INDEX app_keys_prefix ON app_keys (prefix);
   CREATE TABLE app_tokens (
     token_hash TEXT PRIMARY KEY, key_id TEXT NOT NULL REFERENCES app_keys (key_id), app_id TEXT NOT NULL,
     strokes_session_id TEXT, expires_at INTEGER NOT NULL, created_at TEXT NOT NULL
   );
   CREATE INDEX app_tokens_expiry ON app_tokens (expires_at);`,
  // Image endpoint history (4.6): request metadata always, results only when the improve flag allows.
  `CREATE TABLE ocr_requests (
     request_id TEXT PRIMARY KEY, app_id TEXT NOT NULL, group_id TEXT NOT NULL, endpoint TEXT NOT NULL,
     usage_type TEXT NOT NULL, request_args_hash TEXT NOT NULL, created_at TEXT NOT NULL
   );
   CREATE INDEX ocr_requests_group ON ocr_requests (group_id, created_at);
   CREATE TABLE ocr_results (
     request_id TEXT PRIMARY KEY, app_id TEXT NOT NULL, group_id TEXT NOT NULL, endpoint TEXT NOT NULL,
     created_at TEXT NOT NULL, duration_ms INTEGER NOT NULL, request_args TEXT NOT NULL, result TEXT NOT NULL,
     tags TEXT NOT NULL DEFAULT '[]', text TEXT, text_display TEXT, latex_styled TEXT,
     is_printed INTEGER NOT NULL, is_handwritten INTEGER NOT NULL, contains_table INTEGER NOT NULL,
     contains_chemistry INTEGER NOT NULL, contains_diagram INTEGER NOT NULL, contains_triangle INTEGER NOT NULL,
     contains_algorithm INTEGER NOT NULL
   );
   CREATE INDEX ocr_results_group ON ocr_results (group_id, created_at);`,
];

/** Opens the appliance's SQLite ledger (WAL) and brings its schema up to date. */
export function openDatabase(file: string): Database.Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  const version = db.pragma('user_version', { simple: true }) as number;
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
  return db;
}

export function kvGet(db: Database.Database, key: string): string | null {
  const row = db.prepare('SELECT value FROM kv WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value ?? null;
}

export function kvSet(db: Database.Database, key: string, value: string): void {
  db.prepare('INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
}
