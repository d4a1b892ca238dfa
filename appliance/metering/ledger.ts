import type Database from 'better-sqlite3';
import { COUNTERS, type CounterName } from '../../core/counters.js';
import type { FolioEvent } from '../../core/events.js';

export type UsageEvent = Extract<FolioEvent, { type: 'usage' }>;
export type UsageCounts = Record<CounterName, number>;
export interface UsageDay extends UsageCounts {
  day: string;
}
export interface UsageReport {
  from: string;
  to: string;
  /** Every day of [from, to] in order, zero-filled, so a statement has no gaps to explain. */
  days: UsageDay[];
  /** Sum of the day rows, computed from them. */
  totals: UsageCounts;
}

/** Column order of the day rows in usage responses and reports (spec 4.14). */
export const USAGE_FIELDS = [
  'pages_billable',
  'images_billable',
  'documents_billable',
  'pages_completed',
  'pages_failed',
  'documents_completed',
  'documents_failed',
  'images_completed',
  'images_failed',
] as const satisfies readonly CounterName[];

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** True for a real calendar day written YYYY-MM-DD (2024-02-30 is not one). */
export function isDay(v: string): boolean {
  if (!DAY_RE.test(v)) return false;
  const t = Date.parse(`${v}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === v;
}

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included. */
export function daySpan(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

export const zeroCounts = (): UsageCounts => Object.fromEntries(COUNTERS.map((c) => [c, 0])) as UsageCounts;

/**
 * Adds one usage event's deltas to its day, once: the event id is recorded in the same
 * transaction, so a redelivered event changes nothing. Counters only ever grow (deletions never
 * reduce them), so a negative, fractional or unknown delta is refused as a malformed event.
 * A changed day is marked unreported so the reporter sends its new totals.
 * @returns false when the event had already been applied.
 */
export function applyUsageEvent(db: Database.Database, event: UsageEvent, now: number = Date.now()): boolean {
  if (!isDay(event.day)) throw new TypeError(`usage event ${event.eventId}: bad day ${event.day}`);
  const deltas = Object.entries(event.deltas).filter(([, v]) => v !== 0 && v !== undefined) as [string, number][];
  for (const [k, v] of deltas) {
    if (!(COUNTERS as readonly string[]).includes(k)) throw new TypeError(`usage event ${event.eventId}: unknown counter ${k}`);
    if (!Number.isSafeInteger(v) || v < 0) throw new TypeError(`usage event ${event.eventId}: ${k} must be a non-negative integer`);
  }
  return db.transaction(() => {
    const fresh = db
      .prepare('INSERT OR IGNORE INTO usage_events (event_id, day, applied_at) VALUES (?, ?, ?)')
      .run(event.eventId, event.day, new Date(now).toISOString());
    if (fresh.changes === 0) return false;
    if (deltas.length === 0) return true;
    // Column names come from the COUNTERS whitelist checked above, never from the event as such.
    const cols = deltas.map(([k]) => k);
    db.prepare(
      `INSERT INTO usage_days (day, ${cols.join(', ')}) VALUES (?, ${cols.map(() => '?').join(', ')})
       ON CONFLICT(day) DO UPDATE SET ${cols.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')}, reported_at = NULL`,
    ).run(event.day, ...deltas.map(([, v]) => v));
    return true;
  })();
}

/** Usage of [from, to] (YYYY-MM-DD, UTC, inclusive; the caller validates them). */
export function readUsage(db: Database.Database, from: string, to: string): UsageReport {
  const rows = db.prepare(`SELECT day, ${USAGE_FIELDS.join(', ')} FROM usage_days WHERE day >= ? AND day <= ? ORDER BY day`).all(from, to) as UsageDay[];
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const days: UsageDay[] = [];
  const totals = zeroCounts();
  for (let d = from; d <= to; d = addDays(d, 1)) {
    const row = byDay.get(d);
    const out = { day: d } as UsageDay;
    for (const f of USAGE_FIELDS) {
      out[f] = row?.[f] ?? 0;
      totals[f] += out[f];
    }
    days.push(out);
  }
  return { from, to, days, totals: pick(totals) };
}

/** The counters in USAGE_FIELDS order (stable JSON for statements). */
function pick(c: UsageCounts): UsageCounts {
  return Object.fromEntries(USAGE_FIELDS.map((f) => [f, c[f]])) as UsageCounts;
}
