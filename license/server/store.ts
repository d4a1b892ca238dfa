import Database from 'better-sqlite3';
import { USAGE_FIELDS, type UsageDay } from '../../appliance/metering/ledger.js';
import { type LicenseFile, hashLicenseKey, licenseKeyOf } from '../file.js';

/** One issued licence as the vendor keeps it: the key is stored hashed, never in clear. */
export interface IssuedLicense {
  license_id: string;
  deployment_id: string;
  customer: string;
  license_mode: string;
  metering_mode: string;
  issued_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_check_at: string | null;
  last_check_build_id: string | null;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS licenses (
    license_id TEXT PRIMARY KEY, key_hash TEXT NOT NULL UNIQUE, deployment_id TEXT NOT NULL,
    customer TEXT NOT NULL, license_mode TEXT NOT NULL, metering_mode TEXT NOT NULL,
    issued_at TEXT NOT NULL, expires_at TEXT NOT NULL, file TEXT NOT NULL, revoked_at TEXT,
    last_check_at TEXT, last_check_build_id TEXT
  );
  CREATE INDEX IF NOT EXISTS licenses_deployment ON licenses (deployment_id);
  CREATE TABLE IF NOT EXISTS usage_days (
    deployment_id TEXT NOT NULL, day TEXT NOT NULL,
    ${USAGE_FIELDS.map((f) => `${f} INTEGER NOT NULL`).join(', ')},
    received_at TEXT NOT NULL, PRIMARY KEY (deployment_id, day)
  );
  CREATE TABLE IF NOT EXISTS usage_reports (
    id INTEGER PRIMARY KEY AUTOINCREMENT, deployment_id TEXT NOT NULL, build_id TEXT,
    sent_at TEXT NOT NULL, received_at TEXT NOT NULL, days INTEGER NOT NULL
  );`;

const COLUMNS = 'license_id, deployment_id, customer, license_mode, metering_mode, issued_at, expires_at, revoked_at, last_check_at, last_check_build_id';

/** The vendor's records: issued licences, check-ins and usage, in one SQLite file (or in memory). */
export class VendorStore {
  readonly db: Database.Database;

  /** @param file SQLite path; `:memory:` keeps everything in this process. */
  constructor(file = ':memory:') {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(SCHEMA);
  }

  close(): void {
    this.db.close();
  }

  addLicense(licenseId: string, file: LicenseFile): void {
    const p = file.payload;
    this.db
      .prepare(
        'INSERT INTO licenses (license_id, key_hash, deployment_id, customer, license_mode, metering_mode, issued_at, expires_at, file) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        licenseId,
        hashLicenseKey(licenseKeyOf(file)),
        p.deployment_id,
        p.customer,
        p.license_mode,
        p.metering_mode,
        p.issued_at,
        p.expires_at,
        JSON.stringify(file),
      );
  }

  byKey(key: string): IssuedLicense | null {
    return (this.db.prepare(`SELECT ${COLUMNS} FROM licenses WHERE key_hash = ?`).get(hashLicenseKey(key)) as IssuedLicense | undefined) ?? null;
  }

  list(deploymentId?: string): IssuedLicense[] {
    return deploymentId === undefined
      ? (this.db.prepare(`SELECT ${COLUMNS} FROM licenses ORDER BY issued_at`).all() as IssuedLicense[])
      : (this.db.prepare(`SELECT ${COLUMNS} FROM licenses WHERE deployment_id = ? ORDER BY issued_at`).all(deploymentId) as IssuedLicense[]);
  }

  /** Revokes one licence or every licence of a deployment; returns how many were newly revoked. */
  revoke(by: { license_id: string } | { deployment_id: string }, at: string): number {
    const [col, v] = 'license_id' in by ? ['license_id', by.license_id] : ['deployment_id', by.deployment_id];
    return this.db.prepare(`UPDATE licenses SET revoked_at = ? WHERE ${col} = ? AND revoked_at IS NULL`).run(at, v).changes;
  }

  recordCheck(licenseId: string, at: string, buildId: string): void {
    this.db.prepare('UPDATE licenses SET last_check_at = ?, last_check_build_id = ? WHERE license_id = ?').run(at, buildId, licenseId);
  }

  /**
   * Stores a report's day rows. Rows carry cumulative totals, so a repeated or late report must
   * never lower a counter: each field keeps the larger of the stored and the received value.
   */
  recordUsage(report: { deployment_id: string; build_id: string; sent_at: string; days: UsageDay[] }, at: string): void {
    const upsert = this.db.prepare(
      `INSERT INTO usage_days (deployment_id, day, ${USAGE_FIELDS.join(', ')}, received_at)
       VALUES (?, ?, ${USAGE_FIELDS.map(() => '?').join(', ')}, ?)
       ON CONFLICT (deployment_id, day) DO UPDATE SET
         ${USAGE_FIELDS.map((f) => `${f} = MAX(${f}, excluded.${f})`).join(', ')}, received_at = excluded.received_at`,
    );
    this.db.transaction(() => {
      for (const d of report.days) upsert.run(report.deployment_id, d.day, ...USAGE_FIELDS.map((f) => d[f]), at);
      this.db
        .prepare('INSERT INTO usage_reports (deployment_id, build_id, sent_at, received_at, days) VALUES (?, ?, ?, ?, ?)')
        .run(report.deployment_id, report.build_id, report.sent_at, at, report.days.length);
    })();
  }

  usage(deploymentId: string): { days: UsageDay[]; reports: number; last_report_at: string | null } {
    const days = this.db.prepare(`SELECT day, ${USAGE_FIELDS.join(', ')} FROM usage_days WHERE deployment_id = ? ORDER BY day`).all(deploymentId) as UsageDay[];
    const r = this.db.prepare('SELECT COUNT(*) AS n, MAX(received_at) AS last FROM usage_reports WHERE deployment_id = ?').get(deploymentId) as {
      n: number;
      last: string | null;
    };
    return { days, reports: r.n, last_report_at: r.last };
  }
}
