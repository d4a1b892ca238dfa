import type { Redis } from 'ioredis';
import type { Worker } from 'bullmq';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logging.js';
import type { Queues } from '../core/queue/index.js';
import type { Storage, StorageSettings } from '../core/storage/index.js';

/** What a worker process's task handlers share. */
export interface WorkerContext {
  config: Config;
  logger: Logger;
  /** Fail-fast client for records and counters. */
  redis: Redis;
  /** Blocking connection for BullMQ workers (retries forever across Redis restarts). */
  queueConnection: Redis;
  queues: Queues;
  storage: Storage;
  storageSettings: StorageSettings;
  workerId: string;
}

/** A role (inference, document) starts its BullMQ workers and returns them for draining. */
export type RoleStarter = (ctx: WorkerContext) => Promise<Worker[]>;
