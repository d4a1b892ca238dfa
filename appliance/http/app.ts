import { Hono } from 'hono';
import { randomUUID } from 'node:crypto';
import { ApiError, envelope, toApiError } from '../../core/errors.js';
import { loggablePath } from '../auth/middleware.js';
import type { AppContext } from '../context.js';
import { opsRoutes } from './ops/index.js';

export type Env = { Variables: { requestId: string } };

/** The appliance's HTTP API: every surface mounted on one Hono app, one error envelope. */
export function createApp(ctx: AppContext, surfaces: Hono[] = []): Hono<Env> {
  const app = new Hono<Env>();

  app.use('*', async (c, next) => {
    const requestId = c.req.header('x-request-id') ?? randomUUID();
    c.set('requestId', requestId);
    const started = performance.now();
    await next();
    c.header('x-request-id', requestId);
    // Query strings can hold tokens; log the path only, without a token in it. Headers are never logged.
    ctx.logger.info(
      {
        request_id: requestId,
        method: c.req.method,
        route: c.req.routePath,
        path: loggablePath(c.req.path),
        status: c.res.status,
        duration_ms: Math.round(performance.now() - started),
      },
      'request',
    );
  });

  app.route('/', opsRoutes(ctx));
  for (const s of surfaces) app.route('/', s);

  app.notFound((c) => c.json(envelope('not_found', `No route for ${c.req.method} ${c.req.path}`), 404));
  app.onError((err, c) => {
    const apiErr = toApiError(err);
    if (!(err instanceof ApiError)) ctx.logger.error({ request_id: c.get('requestId'), err: { message: err.message, stack: err.stack } }, 'unhandled error');
    return c.json(apiErr.toBody(), apiErr.status);
  });
  return app;
}
