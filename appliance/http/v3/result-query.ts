import type Database from 'better-sqlite3';
import { z } from 'zod';
import { ApiError } from '../../../core/errors.js';
import type { AppAuth } from '../../auth/middleware.js';

/** Part 8: results queries stop at page 10,000. */
export const MAX_RESULTS_PAGE = 10_000;

/**
 * The paging, date window and app shared by the history queries (4.6: GET /v3/ocr-results,
 * /v3/pdf-results, /v3/converter-results). Strict: a filter the endpoint does not know is 400
 * bad_request, never silently the whole history.
 */
export const resultsQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(MAX_RESULTS_PAGE).default(1),
    per_page: z.coerce.number().int().min(1).max(100).default(100),
    from_date: z.string().optional(),
    to_date: z.string().optional(),
    app_id: z.string().optional(),
  })
  .strict();

/** A boolean query value: true or false in any case (Python's client sends True and False). */
export const queryBool = z
  .string()
  .transform((v) => v.toLowerCase())
  .pipe(z.enum(['true', 'false']))
  .transform((v) => v === 'true');

/** Parses a query with `schema`, answering bad_request with every problem named (unknown filters by name). */
export function parseQuery<T extends z.ZodTypeAny>(schema: T, query: unknown): z.infer<T> {
  const q = schema.safeParse(query);
  if (!q.success) {
    const problems = q.error.issues.map((i) => (i.code === 'unrecognized_keys' ? `unknown filter ${i.keys.join(', ')}` : `${i.path.join('.')}: ${i.message}`));
    throw new ApiError('bad_request', problems.join('; '));
  }
  return q.data;
}

/** An ISO date or timestamp; a bare date as to_date means the end of that day. */
export function dateBound(value: string | undefined, field: string, end: boolean): number {
  if (value === undefined) return end ? Infinity : -Infinity;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new ApiError('bad_request', `${field} is not an ISO date`, { field });
  return end && /^\d{4}-\d{2}-\d{2}$/.test(value) ? ms + 86_400_000 - 1 : ms;
}

/** Whose records a per-app history lists: the caller's app, or `appId` when that app is of the caller's group (else null: nothing). */
export function historyAppId(db: Database.Database, auth: AppAuth, appId: string | undefined): string | null {
  if (appId === undefined || appId === auth.appId) return auth.appId;
  const row = db.prepare('SELECT group_id FROM apps WHERE app_id = ?').get(appId) as { group_id: string } | undefined;
  return row?.group_id === auth.groupId ? appId : null;
}

/** A history page narrowed to one record (pdf_id): it, when listed by `appId`, created in the window, on page 1. */
export function oneRecord<T extends { app_id: string; created_at: string }>(rec: T | null, appId: string, fromMs: number, toMs: number, offset: number): T[] {
  if (!rec || rec.app_id !== appId || offset > 0) return [];
  const created = Date.parse(rec.created_at);
  return created >= fromMs && created <= toMs ? [rec] : [];
}
