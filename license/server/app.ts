import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { KeyObject } from 'node:crypto';
import { z } from 'zod';
import { USAGE_FIELDS, isDay } from '../../appliance/metering/ledger.js';
import { MAX_DAYS_PER_REPORT, REPORT_PATH, STATEMENT_VERSION } from '../../appliance/metering/reporter.js';
import { randomId, safeEqual } from '../../core/ids.js';
import { CHECK_PATH } from '../checker.js';
import { licenseKeyOf, licensePayloadSchema, signLicense } from '../file.js';
import { type IssuedLicense, VendorStore } from './store.js';

/**
 * The vendor's licence and metering service, the other end of license/checker.ts and
 * appliance/metering/reporter.ts:
 *
 *   POST /v1/licenses          admin   issue: body {customer, deployment_id, license_mode, metering_mode,
 *                                      expires_at | valid_days} → 201 licence file, header folio-license-id
 *   GET  /v1/licenses          admin   ?deployment_id → {licenses}
 *   POST /v1/licenses/revoke   admin   {license_id} | {deployment_id} → {revoked}
 *   POST /v1/check             licence key → 200 {valid, expires_at, server_time}; 401 unknown, revoked or
 *                                      expired licence, or another deployment's key
 *   POST /v1/usage             licence key → 200 {received_days}; rows upserted by (deployment_id, day)
 *   GET  /v1/usage             admin   ?deployment_id → {days, reports, last_report_at}
 *   PUT  /v1/test/clock        admin, only with testControls: {offset_ms} moves the server's clock
 *
 * The licence key is licenseKeyOf(file); admin calls carry the admin token. Both as bearer tokens.
 */
export interface VendorAppOptions {
  /** Ed25519 private key (PEM or KeyObject) licences are signed with. */
  privateKey: string | KeyObject;
  /** Bearer token of the admin endpoints. */
  adminToken: string;
  /** @default new VendorStore() (in memory) */
  store?: VendorStore;
  /** @default Date.now */
  now?: () => number;
  /** Mounts PUT /v1/test/clock, which skews the server clock. @default false */
  testControls?: boolean;
}

export interface VendorApp {
  app: Hono;
  store: VendorStore;
  /** The server's clock: opts.now plus the test offset. */
  now(): number;
  setClockOffset(ms: number): void;
}

/** Licences last a year unless the issue request says otherwise. */
export const DEFAULT_VALID_DAYS = 365;
const DAY_MS = 86_400_000;

const issueSchema = licensePayloadSchema
  .omit({ issued_at: true, expires_at: true })
  .extend({ expires_at: z.string().datetime({ offset: true }).optional(), valid_days: z.number().int().min(1).max(3660).optional() });
const revokeSchema = z.union([z.object({ license_id: z.string().min(1) }), z.object({ deployment_id: z.string().min(1) })]);
const checkSchema = z.object({ deployment_id: z.string().min(1), build_id: z.string().default('unknown') });
const counts = Object.fromEntries(USAGE_FIELDS.map((f) => [f, z.number().int().min(0)])) as Record<(typeof USAGE_FIELDS)[number], z.ZodNumber>;
const usageSchema = z.object({
  statement_version: z.literal(STATEMENT_VERSION),
  deployment_id: z.string().min(1),
  build_id: z.string().default('unknown'),
  sent_at: z.string().datetime({ offset: true }),
  days: z.array(z.object({ day: z.string().refine(isDay, 'must be a day written YYYY-MM-DD'), ...counts })).max(MAX_DAYS_PER_REPORT),
});

const fail = (c: Context, status: 400 | 401 | 403 | 404, error: string, message: string) => c.json({ error, message }, status);
const bearer = (c: Context) => /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1];

export function createVendorApp(opts: VendorAppOptions): VendorApp {
  const store = opts.store ?? new VendorStore();
  const baseNow = opts.now ?? Date.now;
  let offsetMs = 0;
  const now = () => baseNow() + offsetMs;
  const iso = () => new Date(now()).toISOString();
  const app = new Hono();

  const body = async <T extends z.ZodTypeAny>(c: Context, schema: T): Promise<z.infer<T> | Response> => {
    const parsed = schema.safeParse(await c.req.json().catch(() => undefined));
    if (parsed.success) return parsed.data;
    return fail(c, 400, 'bad_request', parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
  };
  const adminOnly: MiddlewareHandler = async (c, next) =>
    safeEqual(bearer(c) ?? '', opts.adminToken) ? next() : fail(c, 401, 'unauthorized', 'admin token required');
  /** The licence a request's key belongs to, or the 401 to answer. */
  const licensed = (c: Context): IssuedLicense | Response => {
    const key = bearer(c);
    const lic = key ? store.byKey(key) : null;
    return lic ?? fail(c, 401, 'unknown_license', 'no licence has this key');
  };

  app.post('/v1/licenses', adminOnly, async (c) => {
    const req = await body(c, issueSchema);
    if (req instanceof Response) return req;
    const issuedAt = now();
    const expiresAt = req.expires_at ? Date.parse(req.expires_at) : issuedAt + (req.valid_days ?? DEFAULT_VALID_DAYS) * DAY_MS;
    if (expiresAt <= issuedAt) return fail(c, 400, 'bad_request', 'expires_at must be after now');
    const file = signLicense(
      {
        customer: req.customer,
        deployment_id: req.deployment_id,
        license_mode: req.license_mode,
        metering_mode: req.metering_mode,
        expires_at: new Date(expiresAt).toISOString(),
        issued_at: new Date(issuedAt).toISOString(),
      },
      opts.privateKey,
    );
    // Ed25519 is deterministic: the same request in the same millisecond is the same licence.
    const existing = store.byKey(licenseKeyOf(file));
    if (existing) return c.json(file, 200, { 'folio-license-id': existing.license_id });
    const licenseId = randomId('lic_');
    store.addLicense(licenseId, file);
    return c.json(file, 201, { 'folio-license-id': licenseId });
  });

  app.get('/v1/licenses', adminOnly, (c) => c.json({ licenses: store.list(c.req.query('deployment_id')) }));

  app.post('/v1/licenses/revoke', adminOnly, async (c) => {
    const req = await body(c, revokeSchema);
    if (req instanceof Response) return req;
    return c.json({ revoked: store.revoke(req, iso()) });
  });

  app.post(`/${CHECK_PATH}`, async (c) => {
    const lic = licensed(c);
    if (lic instanceof Response) return lic;
    const req = await body(c, checkSchema);
    if (req instanceof Response) return req;
    if (req.deployment_id !== lic.deployment_id) return fail(c, 401, 'deployment_mismatch', 'this key belongs to another deployment');
    store.recordCheck(lic.license_id, iso(), req.build_id);
    if (lic.revoked_at) return fail(c, 401, 'revoked', `the licence was revoked at ${lic.revoked_at}`);
    if (Date.parse(lic.expires_at) <= now()) return fail(c, 401, 'expired', `the licence expired at ${lic.expires_at}`);
    return c.json({ valid: true, expires_at: lic.expires_at, server_time: iso() });
  });

  // Usage is accepted from a revoked or expired licence too: what was processed is still billed.
  app.post(`/${REPORT_PATH}`, async (c) => {
    const lic = licensed(c);
    if (lic instanceof Response) return lic;
    const req = await body(c, usageSchema);
    if (req instanceof Response) return req;
    if (req.deployment_id !== lic.deployment_id) return fail(c, 403, 'deployment_mismatch', 'this key belongs to another deployment');
    store.recordUsage(req, iso());
    return c.json({ received_days: req.days.length, server_time: iso() });
  });

  app.get(`/${REPORT_PATH}`, adminOnly, (c) => {
    const deploymentId = c.req.query('deployment_id');
    if (!deploymentId) return fail(c, 400, 'bad_request', 'deployment_id is required');
    return c.json({ deployment_id: deploymentId, ...store.usage(deploymentId) });
  });

  if (opts.testControls) {
    app.put('/v1/test/clock', adminOnly, async (c) => {
      const req = await body(c, z.object({ offset_ms: z.number().int() }));
      if (req instanceof Response) return req;
      offsetMs = req.offset_ms;
      return c.json({ offset_ms: offsetMs, server_time: iso() });
    });
  }
  app.notFound((c) => fail(c, 404, 'not_found', `no route for ${c.req.method} ${c.req.path}`));

  return { app, store, now, setClockOffset: (ms) => void (offsetMs = ms) };
}
