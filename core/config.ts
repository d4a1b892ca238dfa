import { resolve } from 'node:path';
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * Every environment variable Folio reads, parsed once at start.
 * The README's configuration table mirrors this schema line for line.
 */
export const configSchema = z.object({
  /** TCP port of the HTTP API. */
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Address the HTTP API binds to. */
  HOST: z.string().default('0.0.0.0'),
  /** Folder for SQLite, the private Redis and local storage. */
  FOLIO_DATA_DIR: z.string().default('./data'),
  /** External Redis (redis://host:port/db). Unset: Folio starts and supervises its own redis-server. */
  REDIS_URL: z.string().url().optional(),
  /** redis-server binary used when REDIS_URL is unset. */
  FOLIO_REDIS_SERVER_BIN: z.string().default('redis-server'),
  /** Folio's own result store (file://, s3://, gs://, azure blob https). Default: <data>/storage. */
  FOLIO_STORAGE_URI: z.string().optional(),
  /** Key prefix of every queue and record in Redis, so deployments can share one server. */
  FOLIO_QUEUE_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]+$/i)
    .default('folio'),
  /** Inference workers started as supervised children (one per GPU, or per CPU share). */
  FOLIO_INFERENCE_WORKERS: z.coerce.number().int().min(0).max(64).default(1),
  /** Document workers started as supervised children. */
  FOLIO_DOCUMENT_WORKERS: z.coerce.number().int().min(0).max(64).default(1),
  /** Inference workers this deployment expects alive (/health); defaults to FOLIO_INFERENCE_WORKERS. */
  FOLIO_GPU_WORKERS_EXPECTED: z.coerce.number().int().min(0).optional(),
  /** Document workers this deployment expects alive; defaults to FOLIO_DOCUMENT_WORKERS. */
  FOLIO_DOCUMENT_WORKERS_EXPECTED: z.coerce.number().int().min(0).optional(),
  /** Start the worker processes as children of the appliance (false when they run on other hosts). */
  FOLIO_SPAWN_WORKERS: bool.default('true'),
  /** Concurrent /v3/text and /v3/strokes requests before 429 http_max_requests. */
  FOLIO_TEXT_REQUESTS_MAX: z.coerce.number().int().min(1).default(16),
  /** Interval of worker heartbeats; a worker is alive while its last beat is younger than 3 intervals. */
  FOLIO_HEARTBEAT_MS: z.coerce.number().int().min(100).default(2000),
  /** pino log level. */
  FOLIO_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Identifier reported by /pco/v1/status and usage exports. */
  FOLIO_DEPLOYMENT_ID: z.string().default('folio-local'),
  /** Customer name reported by /pco/v1/status. */
  FOLIO_CUSTOMER: z.string().default('unlicensed'),
  /** online: licence checked against FOLIO_LICENSE_URL; air_gapped: never checked (not_enforced). */
  FOLIO_LICENSE_MODE: z.enum(['online', 'air_gapped']).default('air_gapped'),
  /** Licence server checked in online mode. */
  FOLIO_LICENSE_URL: z.string().url().optional(),
  /** metered: usage reported every 15 minutes; offline: usage kept locally for export. */
  FOLIO_METERING_MODE: z.enum(['metered', 'offline']).default('offline'),
  /** Address clients use to reach this appliance (figure URLs, manifests). */
  FOLIO_PUBLIC_URL: z.string().url().optional(),
  /** Build identifier reported by /pco/v1/status. */
  FOLIO_BUILD_ID: z.string().default('dev'),
  /** Seconds a stopping process waits for in-flight work before it exits. */
  FOLIO_DRAIN_SECONDS: z.coerce.number().int().min(0).default(20),
  /** Allow outbound URLs that resolve to loopback/private addresses (tests and lab set-ups only). */
  FOLIO_ALLOW_PRIVATE_URLS: bool.default('false'),
  /** CPU seconds one OSRA run (a structure diagram read) may use before it is killed and the figure stays a figure. */
  FOLIO_OSRA_CPU_SECONDS: z.coerce.number().int().min(1).max(600).default(8),
  /** Licence key sent as a bearer token to the licence and metering servers (online / metered). */
  FOLIO_LICENSE_KEY: z.string().min(1).optional(),
  /** Seconds between licence checks in online mode; at most 6 h so several checks fall inside the 24 h grace. */
  FOLIO_LICENSE_CHECK_SECONDS: z.coerce.number().int().min(60).max(21_600).default(3600),
  /** Metering server that receives usage reports every 15 minutes in metered mode. */
  FOLIO_METERING_URL: z.string().url().optional(),
  /** Signed licence file, verified at start; its customer, deployment id and modes replace the variables above. */
  FOLIO_LICENSE_FILE: z.string().min(1).optional(),
  /** Ed25519 public key (PEM) licence files are verified with; unset: the vendor key shipped as license/vendor-public-key.pem. */
  FOLIO_LICENSE_PUBLIC_KEY_FILE: z.string().min(1).optional(),
  /** 64 hex digits (32 bytes): AES-256-GCM key sealing data-source secrets at rest; unset: a published development key and a warning at start. */
  FOLIO_DATA_SOURCE_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal digits')
    .optional(),
  /** The AWS account id customers' iam_role trust policies name (GET /files/v1/onboarding/identities). */
  FOLIO_AWS_TRUST_ACCOUNT_ID: z
    .string()
    .regex(/^\d{12}$/, 'must be a 12-digit AWS account id')
    .optional(),
  /** Client id of the operator's multi-tenant Entra app, for azure_ad grants. */
  FOLIO_AZURE_APP_ID: z.string().uuid().optional(),
  /** Home tenant id of that app. */
  FOLIO_AZURE_TENANT_ID: z.string().uuid().optional(),
  /** Service account customers grant the token-creator role to, for gcp grants. */
  FOLIO_GCP_SERVICE_ACCOUNT_EMAIL: z.string().email().optional(),
  /** Seconds between a finalized Files API job's last document settling and job.completed (spec 6.1: one to two minutes). */
  FOLIO_FILES_JOB_COMPLETED_DELAY_SECONDS: z.coerce.number().int().min(0).max(3600).default(90),
  /** Pages per app per UTC month, shared by /v3/pdf and the Files API; 0 = unlimited. */
  FOLIO_PAGE_MONTHLY_LIMIT: z.coerce.number().int().min(0).default(0),
  /** Documents per app per UTC month, shared by /v3/pdf and the Files API; 0 = unlimited. */
  FOLIO_FILE_MONTHLY_LIMIT: z.coerce.number().int().min(0).default(0),
  /** Files API requests per minute per app key; 0 = unlimited. */
  FOLIO_FILES_REQUESTS_PER_MINUTE_PER_KEY: z.coerce.number().int().min(0).default(600),
  /** Files API requests per minute per client address; 0 = unlimited. */
  FOLIO_FILES_REQUESTS_PER_MINUTE_PER_IP: z.coerce.number().int().min(0).default(1200),
  /** Files API documents handed to the document queue and not yet settled, across all jobs. */
  FOLIO_FILES_DISPATCH_WINDOW: z.coerce.number().int().min(1).default(64),
});

export type RawConfig = z.infer<typeof configSchema>;

export interface Config extends RawConfig {
  dataDir: string;
  storageUri: string;
  gpuWorkersExpected: number;
  documentWorkersExpected: number;
  publicUrl: string;
}

export class ConfigError extends Error {}

/** Parses the environment; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const raw = parsed.data;
  const dataDir = resolve(raw.FOLIO_DATA_DIR);
  return {
    ...raw,
    dataDir,
    storageUri: raw.FOLIO_STORAGE_URI ?? `file://${dataDir}/storage/`,
    gpuWorkersExpected: raw.FOLIO_GPU_WORKERS_EXPECTED ?? raw.FOLIO_INFERENCE_WORKERS,
    documentWorkersExpected: raw.FOLIO_DOCUMENT_WORKERS_EXPECTED ?? raw.FOLIO_DOCUMENT_WORKERS,
    publicUrl: (raw.FOLIO_PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/$/, ''),
  };
}
