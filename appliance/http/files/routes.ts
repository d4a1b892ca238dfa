import { Hono } from 'hono';
import type { Resolver } from '../../../core/ssrf.js';
import type { AuthEnv } from '../../auth/middleware.js';
import type { AppContext } from '../../context.js';
import { filesGuard } from './guard.js';
import { defaultOpenBucketUri, type OpenBucketUri } from '../../files/sources.js';
import { filesDocumentRoutes } from './documents.js';
import { filesJobRoutes } from './jobs.js';
import { filesLegacyRoutes } from './legacy-routes.js';

export interface FilesRouteOptions {
  /** DNS for the source_uri and callback_url checks (tests). */
  resolve?: Resolver;
  /** Data-source resolution of bucket URIs. @default the data-sources component */
  open?: OpenBucketUri;
}

/**
 * The Files API documents and jobs (spec 4.9, 4.10) and their older route names, app_key only. Every route counts against the
 * per-minute limits per client address and per key (spec 8) before doing any work.
 */
export function filesRoutes(ctx: AppContext, opts: FilesRouteOptions = {}): Hono {
  const guard = filesGuard(ctx);
  const checks = { allowPrivate: ctx.config.FOLIO_ALLOW_PRIVATE_URLS, azureEmulator: ctx.storageSettings.azureEmulator, resolve: opts.resolve };
  const app = new Hono<AuthEnv>();
  // Jobs first: /files/v1/jobs must never be taken for a file id (the file routes only match ids anyway).
  app.route('/', filesJobRoutes(ctx, guard, checks, opts.open ?? defaultOpenBucketUri));
  app.route('/', filesDocumentRoutes(ctx, guard, checks));
  app.route('/', filesLegacyRoutes(ctx, guard));
  return app as unknown as Hono;
}
