import { z } from 'zod';
import { ApiError } from '../../../core/errors.js';

/** Part 8: results queries stop at page 10,000. */
export const MAX_RESULTS_PAGE = 10_000;

/** The paging and date window shared by GET /v3/ocr-results and GET /v3/pdf-results (4.6). */
export const resultsQuery = z.object({
  page: z.coerce.number().int().min(1).max(MAX_RESULTS_PAGE).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(100),
  from_date: z.string().optional(),
  to_date: z.string().optional(),
});

/** Parses a query with `schema`, answering bad_request with every problem named. */
export function parseQuery<T extends z.ZodTypeAny>(schema: T, query: unknown): z.infer<T> {
  const q = schema.safeParse(query);
  if (!q.success) throw new ApiError('bad_request', q.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return q.data;
}

/** An ISO date or timestamp; a bare date as to_date means the end of that day. */
export function dateBound(value: string | undefined, field: string, end: boolean): number {
  if (value === undefined) return end ? Infinity : -Infinity;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new ApiError('bad_request', `${field} is not an ISO date`, { field });
  return end && /^\d{4}-\d{2}-\d{2}$/.test(value) ? ms + 86_400_000 - 1 : ms;
}
