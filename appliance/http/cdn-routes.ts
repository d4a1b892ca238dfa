import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { ApiError } from '../../core/errors.js';
import { StorageError } from '../../core/storage/index.js';
import { v3FigureKey } from '../../page/figure-links.js';
import type { AppContext } from '../context.js';

/**
 * Spec 1's `{cdn_url}`, served by the appliance itself (`{cdn_url}` = FOLIO_PUBLIC_URL/cdn):
 * GET /cdn/cropped/<name>.jpg answers a figure cropped from a /v3/pdf or Files API document,
 * without credentials, as the hosted CDN's URLs work. The name carries the document's random
 * pdf_id, so it cannot be guessed; it is checked against one strict pattern before it becomes a
 * storage key (no '/', no '..'), and any query (the figure's box, figure-links.ts) is ignored.
 * Spec 4.7: a deleted document's image URLs may still resolve from caches for up to 10 minutes,
 * which is how long a client may keep one.
 */
export const CDN_CACHE_CONTROL = 'public, max-age=600';

export function cdnRoutes(ctx: Pick<AppContext, 'storage'>): Hono {
  const app = new Hono();
  app.get('/cdn/cropped/:file', async (c) => {
    const key = v3FigureKey(c.req.param('file'));
    if (!key) throw new ApiError('not_found', 'No such image');
    let body: Readable;
    try {
      body = await ctx.storage.read(key);
    } catch (err) {
      if (err instanceof StorageError && err.kind === 'not_found') throw new ApiError('not_found', 'No such image');
      throw err;
    }
    return c.body(Readable.toWeb(body) as unknown as ReadableStream, 200, {
      'content-type': 'image/jpeg',
      'cache-control': CDN_CACHE_CONTROL,
      'x-content-type-options': 'nosniff',
    });
  });
  return app;
}
