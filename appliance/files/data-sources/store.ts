import type Database from 'better-sqlite3';
import { randomId } from '../../../core/ids.js';

export const PROVIDERS = ['aws', 'azure', 'gcp'] as const;
export type Provider = (typeof PROVIDERS)[number];
export const AUTH_METHODS = ['iam_role', 'access_key', 'azure_ad', 'service_account'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/** A registered data source as stored; the secret only ever sealed (secret-box.ts). */
export interface DataSource {
  data_source_id: string;
  group_id: string;
  name: string;
  provider: Provider;
  auth_method: AuthMethod;
  /** Bucket (aws, gcp) or container (azure). */
  bucket: string;
  region: string | null;
  /** Origin of a custom endpoint, or null for the provider's public one. */
  endpoint: string | null;
  provider_specific_details: Record<string, string>;
  sealed_secret: string | null;
  created_by_app_id: string;
  created_at: string;
}

/** What GET /files/v1/data-sources shows of a source: everything but the secret. */
export type DataSourceView = Omit<DataSource, 'sealed_secret' | 'group_id' | 'created_by_app_id'>;

interface Row extends Omit<DataSource, 'provider_specific_details'> {
  provider_specific_details: string;
}

const fromRow = (r: Row): DataSource => ({ ...r, provider_specific_details: JSON.parse(r.provider_specific_details) as Record<string, string> });

export function viewOf(d: DataSource): DataSourceView {
  const { sealed_secret: _secret, group_id: _group, created_by_app_id: _app, ...view } = d;
  return view;
}

/** Data sources and the per-group onboarding external ids, in the appliance's SQLite ledger. */
export class DataSourceStore {
  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number = Date.now,
  ) {}

  /** The group's external id (spec 4.11): made on first use, never changed afterwards. */
  externalId(groupId: string): string {
    // INSERT OR IGNORE: two racing first calls keep one id.
    this.db
      .prepare('INSERT OR IGNORE INTO files_group_identities (group_id, external_id, created_at) VALUES (?, ?, ?)')
      .run(groupId, randomId('', 16), new Date(this.now()).toISOString());
    return (this.db.prepare('SELECT external_id FROM files_group_identities WHERE group_id = ?').get(groupId) as { external_id: string }).external_id;
  }

  /** A fresh id for a source about to be inserted (the secret is sealed against it first). */
  newId(): string {
    return randomId('ds_', 12);
  }

  insert(d: Omit<DataSource, 'created_at'>): DataSource {
    const record: DataSource = { ...d, created_at: new Date(this.now()).toISOString() };
    this.db
      .prepare(
        `INSERT INTO files_data_sources (data_source_id, group_id, name, provider, auth_method, bucket, region, endpoint,
           provider_specific_details, sealed_secret, created_by_app_id, created_at)
         VALUES (@data_source_id, @group_id, @name, @provider, @auth_method, @bucket, @region, @endpoint,
           @provider_specific_details, @sealed_secret, @created_by_app_id, @created_at)`,
      )
      .run({ ...record, provider_specific_details: JSON.stringify(record.provider_specific_details) });
    return record;
  }

  get(id: string): DataSource | null {
    const row = this.db.prepare('SELECT * FROM files_data_sources WHERE data_source_id = ?').get(id) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  /** The group's sources, oldest first. */
  list(groupId: string): DataSource[] {
    return (this.db.prepare('SELECT * FROM files_data_sources WHERE group_id = ? ORDER BY created_at, rowid').all(groupId) as Row[]).map(fromRow);
  }

  /** The group's sources for one provider's bucket or container, newest first. */
  forBucket(groupId: string, provider: Provider, bucket: string): DataSource[] {
    return (
      this.db
        .prepare('SELECT * FROM files_data_sources WHERE group_id = ? AND provider = ? AND bucket = ? ORDER BY created_at DESC, rowid DESC')
        .all(groupId, provider, bucket) as Row[]
    ).map(fromRow);
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM files_data_sources WHERE data_source_id = ?').run(id).changes > 0;
  }
}
