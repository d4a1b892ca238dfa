import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/logging.js';
import { openOwnStore, type Storage } from '../../core/storage/index.js';
import type { AppContext } from '../context.js';
import { createApp } from './app.js';
import { CDN_CACHE_CONTROL, cdnRoutes } from './cdn-routes.js';

const PDF_ID = '2025_06_01_0123456789abcdef0123';
const NAME = `${PDF_ID}-3-1.jpg`;

describe('GET /cdn/cropped/<name>.jpg', () => {
  let dir: string;
  let storage: Storage;
  let app: ReturnType<typeof createApp>;
  let jpeg: Buffer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-cdn-'));
    storage = await openOwnStore(`file://${dir}/storage/`, {});
    jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } })
      .jpeg()
      .toBuffer();
    await storage.write(`v3/pdf/${PDF_ID}/images/${NAME}`, jpeg, 'image/jpeg');
    await storage.write(`v3/pdf/${PDF_ID}/${PDF_ID}.mmd`, 'secret text', 'text/markdown');
    const ctx = { storage, logger: createLogger({ name: 't', level: 'silent' }) } as unknown as AppContext;
    app = createApp(ctx, [cdnRoutes(ctx)]);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('serves a stored crop without credentials, as image/jpeg with cache headers, ignoring the box query', async () => {
    const res = await app.request(`/cdn/cropped/${NAME}?height=30&width=40&top_left_y=10&top_left_x=5`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toBe(CDN_CACHE_CONTROL);
    expect(Buffer.from(await res.arrayBuffer()).equals(jpeg)).toBe(true);
  });

  it('answers 404 not_found for an unknown crop and for names that are not crop names', async () => {
    const missing = await app.request(`/cdn/cropped/${PDF_ID}-9-9.jpg`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: 'not_found' });
    for (const bad of [`${PDF_ID}.mmd`, `..%2F${PDF_ID}.mmd`, `${PDF_ID}-3-1.jpg%2F..`, 'x-1-1.jpg', `${PDF_ID}-3-1.png`]) {
      const res = await app.request(`/cdn/cropped/${bad}`);
      expect(res.status, bad).toBe(404);
      expect(res.headers.get('content-type'), bad).not.toBe('image/jpeg');
    }
    expect((await app.request(`/cdn/cropped/../../v3/pdf/${PDF_ID}/${PDF_ID}.mmd`)).status).toBe(404);
  });

  it('stops serving a crop once its document folder is deleted', async () => {
    await storage.delete(`v3/pdf/${PDF_ID}/images/${NAME}`);
    expect((await app.request(`/cdn/cropped/${NAME}`)).status).toBe(404);
  });
});
