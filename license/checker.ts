import type { Redis } from 'ioredis';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logging.js';
import { GRACE_MS, type LicenseMode, type LicenseRecord, type StoredLicense, deriveStatus, initialLicense, readLicense, writeLicense } from './state.js';

/**
 * Licence check protocol (online mode only):
 *
 *   POST <FOLIO_LICENSE_URL>/v1/check
 *   authorization: Bearer <FOLIO_LICENSE_KEY>      (when a key is configured)
 *   {"deployment_id", "build_id", "customer", "license_mode": "online", "client_time"}
 *
 *   200 {"valid": true, "expires_at": ISO|null, "server_time": ISO}  → verified
 *   401 / 403, or 200 with valid !== true                            → unauthorized
 *   any other status, a network error or an unreadable body          → unreachable:<detail>
 *
 * A valid answer whose server_time is more than 5 minutes from our clock is a failure
 * (clock_skew:+Ns, N = server − local): grace is measured with the local clock, so a wrong clock
 * must not be able to verify.
 */
export const CHECK_PATH = 'v1/check';
/** Largest accepted distance between the licence server's clock and ours. */
export const MAX_CLOCK_SKEW_MS = 300_000;
/** A check that has not answered by then counts as unreachable:timeout. */
export const CHECK_TIMEOUT_MS = 10_000;

export interface LicenseCheckerOptions {
  redis: Redis;
  prefix: string;
  mode: LicenseMode;
  deploymentId: string;
  /** FOLIO_LICENSE_URL: operator configuration, never user input, so no SSRF guard applies. */
  url: string | undefined;
  /** FOLIO_LICENSE_KEY, sent as a bearer token. */
  licenseKey: string | undefined;
  /** Time between checks. */
  intervalMs: number;
  buildId?: string;
  customer?: string;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** @default Date.now */
  now?: () => number;
  logger?: Logger;
}

/** The checker's settings from the appliance's configuration (FOLIO_LICENSE_*, FOLIO_DEPLOYMENT_ID, ...). */
export function licenseCheckerConfig(
  config: Pick<
    Config,
    | 'FOLIO_QUEUE_PREFIX'
    | 'FOLIO_LICENSE_MODE'
    | 'FOLIO_DEPLOYMENT_ID'
    | 'FOLIO_LICENSE_URL'
    | 'FOLIO_LICENSE_KEY'
    | 'FOLIO_LICENSE_CHECK_SECONDS'
    | 'FOLIO_BUILD_ID'
    | 'FOLIO_CUSTOMER'
  >,
): Omit<LicenseCheckerOptions, 'redis' | 'fetch' | 'now' | 'logger'> {
  return {
    prefix: config.FOLIO_QUEUE_PREFIX,
    mode: config.FOLIO_LICENSE_MODE,
    deploymentId: config.FOLIO_DEPLOYMENT_ID,
    url: config.FOLIO_LICENSE_URL,
    licenseKey: config.FOLIO_LICENSE_KEY,
    intervalMs: config.FOLIO_LICENSE_CHECK_SECONDS * 1000,
    buildId: config.FOLIO_BUILD_ID,
    customer: config.FOLIO_CUSTOMER,
  };
}

type Outcome = { ok: true; expiresAt: string | null } | { ok: false; error: string };

/** Keeps the shared licence record in Redis up to date; air-gapped mode never calls out. */
export class LicenseChecker {
  private readonly fetch: typeof fetch;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<LicenseRecord> | undefined;
  private stopped = true;

  constructor(private readonly opts: LicenseCheckerOptions) {
    this.fetch = opts.fetch ?? globalThis.fetch;
    this.now = opts.now ?? Date.now;
  }

  /** Stores the first-start record (grace starts now) and, online, checks now and every intervalMs. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.seed();
    if (this.opts.mode === 'online') void this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.inFlight?.catch(() => undefined);
  }

  /** One check (online) and the record it leaves; air-gapped returns the record untouched. */
  checkOnce(): Promise<LicenseRecord> {
    this.inFlight ??= this.check().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async tick(): Promise<void> {
    try {
      await this.checkOnce();
    } catch (err) {
      this.opts.logger?.warn({ err: (err as Error).message }, 'licence check could not be recorded');
    }
    if (!this.stopped) this.timer = setTimeout(() => void this.tick(), this.opts.intervalMs).unref();
  }

  private async seed(): Promise<StoredLicense> {
    const { redis, prefix, mode, deploymentId } = this.opts;
    const stored = await readLicense(redis, prefix);
    if (stored && stored.license_mode === mode && stored.deployment_id === deploymentId) return stored;
    const rec = stored && stored.license_mode === mode ? { ...stored, deployment_id: deploymentId } : initialLicense(mode, deploymentId, this.now());
    await writeLicense(redis, prefix, rec);
    return rec;
  }

  private async check(): Promise<LicenseRecord> {
    const prev = await this.seed();
    if (this.opts.mode === 'air_gapped') return { status: deriveStatus(prev, this.now()), ...prev };
    const outcome = await this.ask();
    const now = this.now();
    const nowIso = new Date(now).toISOString();
    const rec: StoredLicense = outcome.ok
      ? {
          ...prev,
          last_verified_at: nowIso,
          last_checked_at: nowIso,
          consecutive_failures: 0,
          grace_ends_at: new Date(now + GRACE_MS).toISOString(),
          expires_at: outcome.expiresAt,
          last_error: null,
        }
      : {
          ...prev,
          last_checked_at: nowIso,
          consecutive_failures: prev.consecutive_failures + 1,
          grace_ends_at: prev.last_verified_at
            ? new Date(Date.parse(prev.last_verified_at) + GRACE_MS).toISOString()
            : (prev.grace_ends_at ?? new Date(now + GRACE_MS).toISOString()),
          last_error: outcome.error,
        };
    await writeLicense(this.opts.redis, this.opts.prefix, rec);
    const status = deriveStatus(rec, now);
    if (status !== deriveStatus(prev, now) || !outcome.ok) {
      this.opts.logger?.[status === 'verified' ? 'info' : 'warn']({ status, last_error: rec.last_error, grace_ends_at: rec.grace_ends_at }, 'licence check');
    }
    return { status, ...rec };
  }

  private async ask(): Promise<Outcome> {
    const { url, licenseKey } = this.opts;
    if (!url) return { ok: false, error: 'unreachable:FOLIO_LICENSE_URL is not set' };
    let res: Response;
    try {
      res = await this.fetch(new URL(CHECK_PATH, url.endsWith('/') ? url : `${url}/`), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(licenseKey ? { authorization: `Bearer ${licenseKey}` } : {}) },
        body: JSON.stringify({
          deployment_id: this.opts.deploymentId,
          build_id: this.opts.buildId ?? 'dev',
          customer: this.opts.customer ?? null,
          license_mode: 'online',
          client_time: new Date(this.now()).toISOString(),
        }),
        redirect: 'error',
        signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      });
    } catch (err) {
      return { ok: false, error: `unreachable:${describe(err)}` };
    }
    if (res.status === 401 || res.status === 403) return { ok: false, error: 'unauthorized' };
    if (res.status !== 200) return { ok: false, error: `unreachable:http_${res.status}` };
    const body = (await res.json().catch(() => null)) as { valid?: unknown; expires_at?: unknown; server_time?: unknown } | null;
    if (!body || typeof body !== 'object') return { ok: false, error: 'unreachable:invalid_response' };
    if (body.valid !== true) return { ok: false, error: 'unauthorized' };
    const serverTime = typeof body.server_time === 'string' ? Date.parse(body.server_time) : NaN;
    if (Number.isNaN(serverTime)) return { ok: false, error: 'unreachable:invalid_response' };
    const skewMs = serverTime - this.now();
    if (Math.abs(skewMs) > MAX_CLOCK_SKEW_MS) {
      const s = Math.round(skewMs / 1000);
      return { ok: false, error: `clock_skew:${s >= 0 ? '+' : ''}${s}s` };
    }
    const expiresAt = typeof body.expires_at === 'string' && !Number.isNaN(Date.parse(body.expires_at)) ? body.expires_at : null;
    return { ok: true, expiresAt };
  }
}

/** A short, credential-free reason for an unreachable server. */
function describe(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return 'timeout';
  return e.cause?.code ?? e.cause?.message ?? e.message ?? 'network_error';
}
