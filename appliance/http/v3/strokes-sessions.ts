import { ApiError } from '../../../core/errors.js';
import type { Stroke } from '../../../core/v3/strokes.js';
import type { AppAuth } from '../../auth/middleware.js';
import { AppTokens } from '../../auth/tokens.js';
import type { AppContext } from '../../context.js';

/**
 * Strokes sessions (spec 4.1, 4.3, part 5 rule 4: live digital ink with intermediate results).
 * The strokes of every request sent under one strokes_session_id are kept in Redis, in the order
 * they arrived, until the session's token expires; each request is read as the whole session so
 * far. The session comes from the app token that opened it (header strokes_session_id, checked by
 * requireKeyOrToken) or, with app_id + app_key, from the body's strokes_session_id, which must name
 * a live session of the caller's group (else 400 bad_request).
 */
export class StrokesSessions {
  private readonly tokens: AppTokens;

  constructor(private readonly ctx: Pick<AppContext, 'redis' | 'config' | 'db' | 'now'>) {
    this.tokens = new AppTokens({ db: ctx.db, now: ctx.now });
  }

  /** The session a request writes to, or null for a request read alone. */
  sessionOf(auth: AppAuth, body: Record<string, unknown>): { id: string; expiresAt: number } | null {
    const id = auth.via === 'token' ? auth.strokesSessionId : body.strokes_session_id;
    if (id === undefined) return null;
    if (typeof id !== 'string') throw new ApiError('bad_request', 'strokes_session_id must be a string', { field: 'strokes_session_id' });
    const expiresAt = this.tokens.sessionExpiry(id, auth.groupId);
    if (expiresAt === null)
      throw new ApiError('bad_request', 'strokes_session_id names no live strokes session of this account', { field: 'strokes_session_id' });
    return { id, expiresAt };
  }

  /** Appends `strokes` to the session and returns every stroke it holds now, oldest first. */
  async append(session: { id: string; expiresAt: number }, strokes: Stroke[]): Promise<Stroke[]> {
    const key = `${this.ctx.config.FOLIO_QUEUE_PREFIX}:strokes-session:${session.id}`;
    const res = await this.ctx.redis
      .multi()
      .rpush(key, ...strokes.map((s) => JSON.stringify(s)))
      // Relative to the appliance's clock, which Redis's own may not match.
      .pexpire(key, Math.max(1, session.expiresAt - this.ctx.now()))
      .lrange(key, 0, -1)
      .exec();
    const all = res?.[2]?.[1];
    if (!Array.isArray(all)) throw new Error('strokes session could not be read');
    return all.map((s) => JSON.parse(String(s)) as Stroke);
  }
}
