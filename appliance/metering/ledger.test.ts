import { describe, expect, it } from 'vitest';
import { openDatabase } from '../db.js';
import { USAGE_FIELDS, applyUsageEvent, isDay, readUsage } from './ledger.js';

const usage = (eventId: string, day: string, deltas: Record<string, number>) => ({ type: 'usage' as const, eventId, day, deltas });

describe('usage ledger', () => {
  it('applies an event once, however often it is delivered', () => {
    const db = openDatabase(':memory:');
    const e = usage('ev-1', '2025-03-01', { pages_completed: 3, pages_billable: 3, documents_completed: 1, documents_billable: 1 });
    expect(applyUsageEvent(db, e)).toBe(true);
    expect(applyUsageEvent(db, e)).toBe(false);
    expect(applyUsageEvent(db, { ...e, deltas: { pages_completed: 100 } })).toBe(false);
    const r = readUsage(db, '2025-03-01', '2025-03-01');
    expect(r.days[0]).toMatchObject({ day: '2025-03-01', pages_completed: 3, pages_billable: 3, documents_billable: 1 });
  });

  it('sums several events of a day and keeps days apart', () => {
    const db = openDatabase(':memory:');
    applyUsageEvent(db, usage('a', '2025-03-01', { images_completed: 1, images_billable: 1 }));
    applyUsageEvent(db, usage('b', '2025-03-01', { images_completed: 1, images_billable: 1 }));
    applyUsageEvent(db, usage('c', '2025-03-02', { images_failed: 2 }));
    const r = readUsage(db, '2025-03-01', '2025-03-02');
    expect(r.days.map((d) => [d.day, d.images_billable, d.images_failed])).toEqual([
      ['2025-03-01', 2, 0],
      ['2025-03-02', 0, 2],
    ]);
  });

  it('bills zero pages for a document with a failed page: only the deltas the worker sends count', () => {
    const db = openDatabase(':memory:');
    applyUsageEvent(db, usage('doc-1', '2025-03-01', { pages_completed: 4, pages_failed: 1, documents_failed: 1 }));
    const r = readUsage(db, '2025-03-01', '2025-03-01');
    expect(r.totals).toMatchObject({ pages_billable: 0, documents_billable: 0, pages_completed: 4, pages_failed: 1 });
  });

  it('returns every day of the range, zero-filled, with totals equal to the sum of the rows', () => {
    const db = openDatabase(':memory:');
    applyUsageEvent(db, usage('a', '2025-02-27', { pages_billable: 5, pages_completed: 5 }));
    applyUsageEvent(db, usage('b', '2025-03-01', { pages_billable: 7, pages_completed: 8, pages_failed: 1, images_billable: 2 }));
    applyUsageEvent(db, usage('outside', '2025-03-05', { pages_billable: 1000 }));
    const r = readUsage(db, '2025-02-26', '2025-03-02');
    expect(r.days.map((d) => d.day)).toEqual(['2025-02-26', '2025-02-27', '2025-02-28', '2025-03-01', '2025-03-02']);
    expect(r.days[0]).toEqual({ day: '2025-02-26', ...Object.fromEntries(USAGE_FIELDS.map((f) => [f, 0])) });
    for (const f of USAGE_FIELDS) expect(r.totals[f], f).toBe(r.days.reduce((s, d) => s + d[f], 0));
    expect(r.totals.pages_billable).toBe(12);
    expect(Object.keys(r.totals)).toEqual([...USAGE_FIELDS]);
  });

  it('refuses negative, fractional and unknown deltas without touching the ledger', () => {
    const db = openDatabase(':memory:');
    applyUsageEvent(db, usage('a', '2025-03-01', { pages_billable: 5 }));
    expect(() => applyUsageEvent(db, usage('neg', '2025-03-01', { pages_billable: -5 }))).toThrow(/non-negative/);
    expect(() => applyUsageEvent(db, usage('frac', '2025-03-01', { pages_billable: 0.5 }))).toThrow(/integer/);
    expect(() => applyUsageEvent(db, usage('unk', '2025-03-01', { pages_deleted: 1 }))).toThrow(/unknown counter/);
    expect(() => applyUsageEvent(db, usage('day', '2025-02-30', { pages_billable: 1 }))).toThrow(/bad day/);
    expect(readUsage(db, '2025-03-01', '2025-03-01').totals.pages_billable).toBe(5);
    // A refused event is not marked applied: a corrected redelivery is still possible.
    expect((db.prepare('SELECT COUNT(*) AS n FROM usage_events').get() as { n: number }).n).toBe(1);
  });

  it('marks a day unreported again when it gains usage', () => {
    const db = openDatabase(':memory:');
    applyUsageEvent(db, usage('a', '2025-03-01', { pages_billable: 1 }));
    db.prepare("UPDATE usage_days SET reported_at = '2025-03-01T01:00:00Z'").run();
    applyUsageEvent(db, usage('b', '2025-03-01', { pages_billable: 1 }));
    expect(db.prepare('SELECT reported_at FROM usage_days').get()).toEqual({ reported_at: null });
  });

  it('recognises real calendar days only', () => {
    expect(isDay('2024-02-29')).toBe(true);
    for (const bad of ['2025-02-29', '2025-13-01', '2025-1-01', '20250101', '2025-01-01T00:00:00Z', '']) expect(isDay(bad), bad).toBe(false);
  });
});
