import type Database from 'better-sqlite3';
import type { Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logging.js';
import type { Queues } from '../core/queue/index.js';
import type { Storage, StorageSettings } from '../core/storage/index.js';

/** Everything the HTTP surfaces and the orchestrator share, built once by main.ts. */
export interface AppContext {
  config: Config;
  logger: Logger;
  redis: Redis;
  queues: Queues;
  /** Folio's own result store. */
  storage: Storage;
  storageSettings: StorageSettings;
  db: Database.Database;
  metrics: Registry;
  /** Synchronous text requests being served right now. */
  textRequests: { inFlight: number };
  startedAt: number;
  now: () => number;
}
