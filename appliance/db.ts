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
  // Files API (spec 2.8-2.10, 3.1-3.3): jobs, the options of each submission (shared by its files),
  // files, idempotency keys ((job_id, custom_id) pairs and Idempotency-Key headers) and the
  // per-app monthly counters that /v3/pdf shares (spec 8).
  `CREATE TABLE files_jobs (
     job_id TEXT PRIMARY KEY, app_id TEXT NOT NULL, group_id TEXT NOT NULL,
     status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'finalized', 'completed')),
     file_count INTEGER NOT NULL DEFAULT 0, files_completed INTEGER NOT NULL DEFAULT 0,
     files_errored INTEGER NOT NULL DEFAULT 0, num_pages_sent INTEGER NOT NULL DEFAULT 0,
     num_pages_completed INTEGER NOT NULL DEFAULT 0, callback TEXT, replay_file_count INTEGER,
     created_at TEXT NOT NULL, modified_at TEXT NOT NULL, completion_due_at INTEGER
   );
   CREATE INDEX files_jobs_group ON files_jobs (group_id, created_at);
   CREATE INDEX files_jobs_due ON files_jobs (completion_due_at) WHERE status = 'finalized' AND completion_due_at IS NOT NULL;
   CREATE TABLE files_submissions (
     submission_id INTEGER PRIMARY KEY, job_id TEXT, request_args TEXT NOT NULL,
     image_output_mode TEXT, callback TEXT, created_at TEXT NOT NULL
   );
   CREATE TABLE files (
     file_id TEXT PRIMARY KEY, app_id TEXT NOT NULL, group_id TEXT NOT NULL, job_id TEXT, custom_id TEXT,
     submission_id INTEGER NOT NULL REFERENCES files_submissions (submission_id),
     status TEXT NOT NULL CHECK (status IN ('pending', 'split', 'completed', 'error', 'deleted')),
     source_uri TEXT, upload_key TEXT, filename TEXT NOT NULL, destination_uri TEXT,
     destination_basename TEXT, output_basename TEXT NOT NULL, s3_region TEXT,
     dispatched INTEGER NOT NULL DEFAULT 0, num_pages INTEGER NOT NULL DEFAULT 0,
     num_pages_completed INTEGER NOT NULL DEFAULT 0, formats TEXT, error TEXT, error_message TEXT,
     created_at TEXT NOT NULL, modified_at TEXT NOT NULL
   );
   CREATE INDEX files_by_job ON files (job_id);
   CREATE INDEX files_by_job_status ON files (job_id, status);
   CREATE INDEX files_undispatched ON files (dispatched) WHERE dispatched = 0;
   CREATE INDEX files_in_flight ON files (dispatched) WHERE dispatched = 1 AND status IN ('pending', 'split');
   CREATE TABLE files_idempotency (
     scope TEXT NOT NULL, idem_key TEXT NOT NULL, file_id TEXT NOT NULL, PRIMARY KEY (scope, idem_key)
   );
   CREATE TABLE app_usage_months (
     app_id TEXT NOT NULL, month TEXT NOT NULL, files INTEGER NOT NULL DEFAULT 0, pages INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (app_id, month)
   );
   CREATE TABLE app_usage_events (event_id TEXT PRIMARY KEY, applied_at TEXT NOT NULL);`,
  // Files API data sources (spec 2.11, 4.11): each group's immutable onboarding external id, and its
  // registered buckets; the access_key secret only sealed with AES-256-GCM.
  `CREATE TABLE files_group_identities (
     group_id TEXT PRIMARY KEY, external_id TEXT NOT NULL, created_at TEXT NOT NULL
   );
   CREATE TABLE files_data_sources (
     data_source_id TEXT PRIMARY KEY, group_id TEXT NOT NULL, name TEXT NOT NULL,
     provider TEXT NOT NULL CHECK (provider IN ('aws', 'azure', 'gcp')),
     auth_method TEXT NOT NULL CHECK (auth_method IN ('iam_role', 'access_key', 'azure_ad', 'service_account')),
     bucket TEXT NOT NULL, region TEXT, endpoint TEXT, provider_specific_details TEXT NOT NULL DEFAULT '{}',
     sealed_secret TEXT, created_by_app_id TEXT NOT NULL, created_at TEXT NOT NULL
   );
   CREATE INDEX files_data_sources_bucket ON files_data_sources (group_id, provider, bucket);`,
  // Files API batches accepted in chunks (appliance/files/accept.ts): a submission is 'writing'
  // while its files go in held (dispatched = -1, seen by no reader), then 'accepted' in one step.
  `ALTER TABLE files_submissions ADD COLUMN state TEXT NOT NULL DEFAULT 'accepted' CHECK (state IN ('writing', 'accepted'));
   CREATE INDEX files_held ON files (submission_id) WHERE dispatched = -1;`,
  // App tokens keep the user_id they were issued for (GET /v3/app-tokens/{token}); strokes sessions are found by id.
  `ALTER TABLE app_tokens ADD COLUMN user_id TEXT;
   CREATE INDEX app_tokens_session ON app_tokens (strokes_session_id) WHERE strokes_session_id IS NOT NULL;`,
  // GET /files/v1/list (the Files API's older listing) filters a group's files by filename.
  `CREATE INDEX files_by_group_filename ON files (group_id, filename);`,
  // The pages of /v3/pdf documents are image results too (GET /v3/ocr-results?pdf_id=).
  `ALTER TABLE ocr_results ADD COLUMN pdf_id TEXT;
   CREATE INDEX ocr_results_pdf ON ocr_results (pdf_id) WHERE pdf_id IS NOT NULL;`,
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
