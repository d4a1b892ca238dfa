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
