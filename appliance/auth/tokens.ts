import type Database from 'better-sqlite3';
import { ApiError } from '../../core/errors.js';
import { randomId, safeEqual } from '../../core/ids.js';
import { hashCredential, type VerifiedKey } from './keys.js';

/** Token lifetime when the request names none (spec 4.1). */
export const TOKEN_EXPIRES_DEFAULT_SECONDS = 300;
export const TOKEN_EXPIRES_MIN_SECONDS = 30;
export const TOKEN_EXPIRES_MAX_SECONDS = 43_200;
/** A token that opens a strokes session lives at most five minutes (spec 4.1). */
export const STROKES_TOKEN_EXPIRES_MAX_SECONDS = 300;
const TOKEN_BYTES = 32;

/** Id shapes of the hosted service (docs/client-compat.md, "Identifier shapes"). */
export const APP_TOKEN_PREFIX = 'token_';
export const STROKES_SESSION_PREFIX = 'strokes_';
/** Longest user_id kept with a token. */
const USER_ID_MAX = 256;

/** What POST /v3/app-tokens asked for, once validated. */
export interface TokenRequest {
  strokesSession: boolean;
  expiresSeconds: number;
  userId?: string;
}

/** GET and DELETE /v3/app-tokens/{app_token}: the token as issued, and whose it is. */
export interface TokenInfo {
  app_token: string;
  app_token_expires_at: number;
  app_id: string;
  group_id: string;
  user_id: string | null;
  strokes_session_id?: string;
}

/** The body of POST /v3/app-tokens (spec 4.1). */
export interface IssuedToken {
  app_token: string;
  /** Unix time in milliseconds. */
  app_token_expires_at: number;
  strokes_session_id?: string;
}

/** Who a valid token speaks for. */
export interface VerifiedToken extends VerifiedKey {
  strokesSessionId: string | null;
  expiresAt: number;
}

export type TokenCheck = { ok: true; token: VerifiedToken } | { ok: false; reason: 'unknown' | 'expired' | 'revoked' };

/**
 * Validates the optional body of POST /v3/app-tokens: include_strokes_session_id a boolean,
 * expires a number of seconds in 30..43200, or 30..300 with a strokes session; else 400 bad_request.
 */
export function parseTokenRequest(body: Record<string, unknown> | undefined): TokenRequest {
  const strokes = body?.include_strokes_session_id;
  if (strokes !== undefined && typeof strokes !== 'boolean') {
    throw new ApiError('bad_request', 'include_strokes_session_id must be a boolean', { field: 'include_strokes_session_id' });
  }
  const strokesSession = strokes === true;
  const max = strokesSession ? STROKES_TOKEN_EXPIRES_MAX_SECONDS : TOKEN_EXPIRES_MAX_SECONDS;
  // A present null is refused, not read as "default".
  const expires = body?.expires === undefined ? TOKEN_EXPIRES_DEFAULT_SECONDS : body.expires;
  if (typeof expires !== 'number' || !Number.isFinite(expires) || expires < TOKEN_EXPIRES_MIN_SECONDS || expires > max) {
    const why = strokesSession ? ' with include_strokes_session_id' : '';
    throw new ApiError('bad_request', `expires must be a number of seconds from ${TOKEN_EXPIRES_MIN_SECONDS} to ${max}${why}`, { field: 'expires' });
  }
  const userId = body?.user_id;
  if (userId !== undefined && (typeof userId !== 'string' || userId.length > USER_ID_MAX)) {
    throw new ApiError('bad_request', `user_id must be a string of at most ${USER_ID_MAX} characters`, { field: 'user_id' });
  }
  return { strokesSession, expiresSeconds: expires, ...(userId !== undefined ? { userId } : {}) };
}

type TokenRow = {
  token_hash: string;
  key_id: string;
  app_id: string;
  strokes_session_id: string | null;
  expires_at: number;
  revoked_at: string | null;
  group_id: string;
  user_id: string | null;
};

/**
 * App tokens (spec 4.1, 3.6): random, stored as sha256 hashes with their expiry, valid while the
 * injected clock reads before it. A token dies with the key that made it.
 */
export class AppTokens {
  private readonly db: Database.Database;
  private readonly now: () => number;

  constructor(opts: { db: Database.Database; /** @default Date.now */ now?: () => number }) {
    this.db = opts.db;
    this.now = opts.now ?? Date.now;
  }

  /** Issues a token for a verified key; the token itself is returned here and never stored. */
  issue(key: VerifiedKey, req: TokenRequest): IssuedToken {
    const now = this.now();
    const token = randomId(APP_TOKEN_PREFIX, TOKEN_BYTES);
    const expiresAt = now + Math.round(req.expiresSeconds * 1000);
    const sessionId = req.strokesSession ? randomId(STROKES_SESSION_PREFIX, 16) : null;
    this.db.transaction(() => {
      // Expired rows are useless; issuing is the natural moment to drop them.
      this.db.prepare('DELETE FROM app_tokens WHERE expires_at <= ?').run(now);
      this.db
        .prepare('INSERT INTO app_tokens (token_hash, key_id, app_id, strokes_session_id, expires_at, created_at, user_id) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(hashCredential(token), key.keyId, key.appId, sessionId, expiresAt, new Date(now).toISOString(), req.userId ?? null);
    })();
    return { app_token: token, app_token_expires_at: expiresAt, ...(sessionId ? { strokes_session_id: sessionId } : {}) };
  }

  /** Checks a presented token: unknown, expired (at or after app_token_expires_at), or its key revoked. */
  verify(appToken: string): TokenCheck {
    const row = this.row(appToken);
    if (!row) return { ok: false, reason: 'unknown' };
    if (this.now() >= row.expires_at) return { ok: false, reason: 'expired' };
    if (row.revoked_at) return { ok: false, reason: 'revoked' };
    return {
      ok: true,
      token: { keyId: row.key_id, appId: row.app_id, groupId: row.group_id, strokesSessionId: row.strokes_session_id, expiresAt: row.expires_at },
    };
  }

  /** A live token of `groupId` as GET /v3/app-tokens/{token} shows it; null when unknown, expired, revoked or another group's. */
  info(appToken: string, groupId: string): TokenInfo | null {
    const check = this.verify(appToken);
    if (!check.ok || check.token.groupId !== groupId) return null;
    const row = this.row(appToken)!;
    const t = check.token;
    return {
      app_token: appToken,
      app_token_expires_at: t.expiresAt,
      app_id: t.appId,
      group_id: t.groupId,
      user_id: row.user_id,
      ...(t.strokesSessionId ? { strokes_session_id: t.strokesSessionId } : {}),
    };
  }

  /** Ends a live token of `groupId` at once (DELETE /v3/app-tokens/{token}); what it was, or null as info() says. */
  revoke(appToken: string, groupId: string): TokenInfo | null {
    const found = this.info(appToken, groupId);
    if (found) this.db.prepare('DELETE FROM app_tokens WHERE token_hash = ?').run(hashCredential(appToken));
    return found;
  }

  /** When a live strokes session of `groupId` ends (its token's expiry), or null if there is none. */
  sessionExpiry(sessionId: string, groupId: string): number | null {
    const row = this.db
      .prepare(
        `SELECT t.expires_at FROM app_tokens t JOIN app_keys k USING (key_id) JOIN apps a ON a.app_id = t.app_id
         WHERE t.strokes_session_id = ? AND a.group_id = ? AND k.revoked_at IS NULL AND t.expires_at > ?`,
      )
      .get(sessionId, groupId, this.now()) as { expires_at: number } | undefined;
    return row?.expires_at ?? null;
  }

  private row(appToken: string): TokenRow | undefined {
    if (appToken.length > APP_TOKEN_PREFIX.length + TOKEN_BYTES * 4) return undefined;
    const presented = hashCredential(appToken);
    // Looked up by hash: a caller cannot steer which stored hash an index probe lands near.
    const row = this.db
      .prepare(
        `SELECT t.token_hash, t.key_id, t.app_id, t.strokes_session_id, t.expires_at, t.user_id, k.revoked_at, a.group_id
         FROM app_tokens t JOIN app_keys k USING (key_id) JOIN apps a ON a.app_id = t.app_id WHERE t.token_hash = ?`,
      )
      .get(presented) as TokenRow | undefined;
    return row && safeEqual(row.token_hash, presented) ? row : undefined;
  }
}
