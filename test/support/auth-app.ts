import { Hono } from 'hono';
import { Writable } from 'node:stream';
import { loadConfig } from '../../core/config.js';
import { ApiError, toApiError } from '../../core/errors.js';
import { createLogger } from '../../core/logging.js';
import type { AppContext } from '../../appliance/context.js';
import { openDatabase } from '../../appliance/db.js';
import { requireAppKey, requireKeyOrToken } from '../../appliance/auth/middleware.js';
import { authRoutes } from '../../appliance/auth/routes.js';

/** Test support: authRoutes plus one probe route behind each middleware, in-process, with a movable clock. */
export function authTestApp(opts: { logLevel?: string } = {}) {
  let clock = Date.parse('2025-06-01T12:00:00Z');
  let logs = '';
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs += chunk;
      cb();
    },
  });
  const ctx = {
    config: loadConfig({}),
    logger: createLogger({ name: 't', level: opts.logLevel ?? 'silent', destination: sink }),
    db: openDatabase(':memory:'),
    now: () => clock,
  } as AppContext;

  const app = new Hono();
  // A request log like appliance/http/app.ts's, so tests see what a real request leaves behind.
  app.use('*', async (c, next) => {
    await next();
    ctx.logger.info({ method: c.req.method, path: c.req.path, status: c.res.status }, 'request');
  });
  app.route('/', authRoutes(ctx));
  app.get('/probe/key', requireAppKey(ctx, { appIdRequired: true }), (c) => c.json(c.get('auth')));
  app.get('/probe/key-only', requireAppKey(ctx, { appIdRequired: false }), (c) => c.json(c.get('auth')));
  app.get('/probe/text', requireKeyOrToken(ctx), (c) => c.json(c.get('auth')));
  app.get('/probe/strokes', requireKeyOrToken(ctx, { strokes: true }), (c) => c.json(c.get('auth')));
  app.onError((err, c) => {
    const apiErr = toApiError(err);
    if (!(err instanceof ApiError)) ctx.logger.error({ err: { message: err.message } }, 'unhandled error');
    return c.json(apiErr.toBody(), apiErr.status);
  });

  /** One request; `body` is sent as JSON, a string as it is. */
  const call = async (method: string, path: string, init: { headers?: Record<string, string>; body?: unknown } = {}) => {
    const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    const res = await app.request(path, { method, headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...init.headers }, body });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as any, text };
  };

  /** Creates an app (by name) and one key for it through the operator routes. */
  const newKey = async (name = 'acme') => {
    const { body: app } = await call('POST', '/pco/v1/apps', { body: { name } });
    const { body: key } = await call('POST', `/pco/v1/apps/${app.app_id}/keys`);
    return key as { app_key: string; key_id: string; prefix: string; app_id: string };
  };

  /** Issues a token with the key; `body` is the optional POST /v3/app-tokens body. */
  const newToken = async (appKey: string, body?: unknown) => {
    const res = await call('POST', '/v3/app-tokens', { headers: { app_key: appKey }, body });
    if (res.status !== 200) throw new Error(`token: ${res.status} ${res.text}`);
    return res.body as { app_token: string; app_token_expires_at: number; strokes_session_id?: string };
  };

  return {
    app,
    ctx,
    call,
    newKey,
    newToken,
    logs: () => logs,
    now: () => clock,
    advance: (ms: number) => void (clock += ms),
  };
}
