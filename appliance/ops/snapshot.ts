import type { Redis } from 'ioredis';
import type { Config } from '../../core/config.js';
import { countAlive } from '../../core/heartbeat.js';
import type { Queues } from '../../core/queue/index.js';
import { withDeadline } from '../../core/redis.js';
import type { Storage } from '../../core/storage/index.js';
import { type LicenseStatus, effectiveLicense, readLicense } from '../../license/state.js';

/** Longest any single probe may take, so /health answers well under a second. */
export const PROBE_DEADLINE_MS = 400;

export interface OpsSnapshot {
  redisConnected: boolean;
  storageConnected: boolean;
  gpuWorkersAlive: number;
  documentWorkersAlive: number;
  queueDepths: Record<string, number>;
  license: { status: LicenseStatus | 'unknown'; last_verified_at: string | null; secondsSinceVerified: number | null };
}

export interface OpsDeps {
  config: Config;
  redis: Redis;
  queues: Queues;
  storage: Storage;
  now?: () => number;
}

/** Reads every live fact /health, /metrics and /pco/v1/status report, each probe bounded. */
export async function readSnapshot(deps: OpsDeps): Promise<OpsSnapshot> {
  const { config, redis } = deps;
  const now = deps.now?.() ?? Date.now();
  const prefix = config.FOLIO_QUEUE_PREFIX;
  const [redisConnected, storageConnected] = await Promise.all([
    withDeadline(redis.ping(), PROBE_DEADLINE_MS).then(
      () => true,
      () => false,
    ),
    withDeadline(deps.storage.ping(), PROBE_DEADLINE_MS).then(
      () => true,
      () => false,
    ),
  ]);
  const snapshot: OpsSnapshot = {
    redisConnected,
    storageConnected,
    gpuWorkersAlive: 0,
    documentWorkersAlive: 0,
    queueDepths: {},
    license: { status: 'unknown', last_verified_at: null, secondsSinceVerified: null },
  };
  if (!redisConnected) return snapshot;
  try {
    const hb = config.FOLIO_HEARTBEAT_MS;
    const [gpu, doc, depths, lic] = await withDeadline(
      Promise.all([
        countAlive(redis, prefix, 'inference', hb, now),
        countAlive(redis, prefix, 'document', hb, now),
        deps.queues.depths(),
        readLicense(redis, prefix),
      ]),
      PROBE_DEADLINE_MS,
    );
    const rec = effectiveLicense(lic, config.FOLIO_LICENSE_MODE, config.FOLIO_DEPLOYMENT_ID, now);
    snapshot.gpuWorkersAlive = gpu;
    snapshot.documentWorkersAlive = doc;
    snapshot.queueDepths = depths;
    snapshot.license = {
      status: rec.status,
      last_verified_at: rec.last_verified_at,
      secondsSinceVerified: rec.last_verified_at ? Math.max(0, (now - Date.parse(rec.last_verified_at)) / 1000) : null,
    };
  } catch {
    // Redis answered the ping but not the reads: report as unreachable rather than half a picture.
    snapshot.redisConnected = false;
  }
  return snapshot;
}

/** 3.10: degraded when the state store or the bucket does not answer, or no GPU worker is alive. */
export function isHealthy(s: OpsSnapshot, gpuExpected: number): boolean {
  return s.redisConnected && s.storageConnected && (gpuExpected === 0 || s.gpuWorkersAlive > 0);
}
