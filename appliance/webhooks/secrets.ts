import type Database from 'better-sqlite3';
import { ApiError } from '../../core/errors.js';
import { randomId } from '../../core/ids.js';

/** After a rotation without force, both secrets sign for this long (spec 3.7, 6.2 item 10). */
export const ROTATION_GRACE_MS = 24 * 3600 * 1000;

/** The deployment's key; Files API applications get their own keys later. */
export const PCO_SECRET_KEY = 'pco';

export interface SecretState {
  /** `whsec_` followed by 64 hexadecimal digits. */
  secret: string;
  /** RFC 3339 end of the grace period while the previous secret still signs, else null. */
  previousSecretExpiresAt: string | null;
}

export interface WebhookSecretsOptions {
  db: Database.Database;
  /** @default 'pco' */
  key?: string;
  /** Milliseconds since the epoch. @default Date.now */
  now?: () => number;
  /** @default ROTATION_GRACE_MS */
  graceMs?: number;
}

interface Row {
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
}

const newSecret = () => randomId('whsec_', 32);

/**
 * The signing secret of one scope in SQLite, with the rotation states of spec 3.7: one secret,
 * or two during a grace period after a rotation without force. Secrets never reach the logs.
 */
export class WebhookSecrets {
  private readonly db: Database.Database;
  private readonly key: string;
  private readonly now: () => number;
  private readonly graceMs: number;

  constructor(opts: WebhookSecretsOptions) {
    this.db = opts.db;
    this.key = opts.key ?? PCO_SECRET_KEY;
    this.now = opts.now ?? Date.now;
    this.graceMs = opts.graceMs ?? ROTATION_GRACE_MS;
  }

  /** The current state, creating the first secret on first use. */
  getOrCreate(): SecretState {
    // INSERT OR IGNORE keeps two processes racing on first use from minting two secrets.
    this.db
      .prepare('INSERT OR IGNORE INTO webhook_secrets (key, secret, updated_at) VALUES (?, ?, ?)')
      .run(this.key, newSecret(), new Date(this.now()).toISOString());
    return this.view(this.row()!, this.now());
  }

  /**
   * Replaces the secret. Without force the old one keeps signing for the grace period, and a second
   * rotation while that period is open is ApiError('conflict'); with force the new secret is alone at once.
   */
  rotate(force = false): SecretState {
    const now = this.now();
    const updatedAt = new Date(now).toISOString();
    return this.db
      .transaction(() => {
        const row = this.row();
        const secret = newSecret();
        if (!row) {
          this.db.prepare('INSERT INTO webhook_secrets (key, secret, updated_at) VALUES (?, ?, ?)').run(this.key, secret, updatedAt);
          return { secret, previousSecretExpiresAt: null };
        }
        const graceOpen = this.graceOpen(row, now);
        if (graceOpen && !force) {
          const until = new Date(row.previous_secret_expires_at!).toISOString();
          throw new ApiError('conflict', `A rotation grace period is open until ${until}; pass force: true to replace the secret at once`);
        }
        const previous = force ? null : row.secret;
        const expiresAt = force ? null : now + this.graceMs;
        this.db
          .prepare('UPDATE webhook_secrets SET secret = ?, previous_secret = ?, previous_secret_expires_at = ?, updated_at = ? WHERE key = ?')
          .run(secret, previous, expiresAt, updatedAt, this.key);
        return { secret, previousSecretExpiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString() };
      })
      .immediate(); // write lock first: two concurrent rotations cannot both see "no grace open"
  }

  /** The secrets that sign a notification sent at `now`: the current one first, then the previous during grace. */
  activeSecrets(now = this.now()): string[] {
    this.getOrCreate();
    const row = this.row()!;
    return this.graceOpen(row, now) ? [row.secret, row.previous_secret!] : [row.secret];
  }

  private row(): Row | undefined {
    return this.db.prepare('SELECT secret, previous_secret, previous_secret_expires_at FROM webhook_secrets WHERE key = ?').get(this.key) as Row | undefined;
  }

  private graceOpen(row: Row, now: number): boolean {
    return row.previous_secret !== null && row.previous_secret_expires_at !== null && now < row.previous_secret_expires_at;
  }

  private view(row: Row, now: number): SecretState {
    const open = this.graceOpen(row, now);
    return { secret: row.secret, previousSecretExpiresAt: open ? new Date(row.previous_secret_expires_at!).toISOString() : null };
  }
}
