import type { Redis } from 'ioredis';
import type { CounterName } from './counters.js';

/**
 * Facts workers report to the control plane. Workers never write SQLite: they append events to
 * one Redis stream, and the appliance's orchestrator consumes it (a consumer group, so an event
 * survives an appliance restart) to update the ledger and send webhooks. Every event has an
 * `eventId` that is stable across retries, so applying one twice is a no-op.
 */
export type FolioEvent =
  | { type: 'usage'; eventId: string; day: string; deltas: Partial<Record<CounterName, number>> }
  | { type: 'pco.file'; eventId: string; jobId: string; documentId: string; status: 'completed' | 'failed' }
  | { type: 'pco.job'; eventId: string; jobId: string }
  /** A /v3/pdf document reached its end state (file.completed / file.error notifications). */
  | { type: 'v3.pdf'; eventId: string; pdfId: string; status: 'completed' | 'error' };

export const eventsStream = (prefix: string) => `${prefix}:events`;

export async function emitEvent(redis: Redis, prefix: string, event: FolioEvent): Promise<void> {
  await redis.xadd(eventsStream(prefix), 'MAXLEN', '~', '1000000', '*', 'e', JSON.stringify(event));
}

/** UTC day of a timestamp, as the usage ledger keys it. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
