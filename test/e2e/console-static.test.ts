import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleRoutes } from '../../appliance/http/console-static.js';

// The static route in-process (app.request, no port): what the browser test relies on, and the
// answers it cannot easily provoke (traversal, a console that was never built).
describe('consoleRoutes', () => {
  let dist: string;
  let empty: string;

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'folio-console-dist-'));
    empty = await mkdtemp(join(tmpdir(), 'folio-console-empty-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(join(dist, 'index.html'), '<!doctype html><title>Folio console</title>');
    await writeFile(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    await writeFile(join(dist, 'assets', 'index-abc123.css'), 'body{}');
    await writeFile(join(tmpdir(), 'folio-secret.txt'), 'outside');
  });
  afterAll(async () => {
    await rm(dist, { recursive: true, force: true });
    await rm(empty, { recursive: true, force: true });
    await rm(join(tmpdir(), 'folio-secret.txt'), { force: true });
  });

  it('answers index.html for /console and /console/, revalidated on every load', async () => {
    const app = consoleRoutes({ distDir: dist });
    for (const path of ['/console', '/console/']) {
      const res = await app.request(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(await res.text()).toContain('Folio console');
    }
  });

  it('serves hashed assets with their content type and a long cache life', async () => {
    const app = consoleRoutes({ distDir: dist });
    const js = await app.request('/console/assets/index-abc123.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toContain('immutable');
    expect(await js.text()).toBe('console.log(1)');
    const css = await app.request('/console/assets/index-abc123.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('answers 404 not_found in the error envelope for a missing file or a path leaving dist', async () => {
    const app = consoleRoutes({ distDir: dist });
    for (const path of [
      '/console/assets/nope.js',
      '/console/assets',
      '/console/assets/%2e%2e%2f%2e%2e%2ffolio-secret.txt',
      '/console/..%2f..%2f..%2fetc%2fpasswd',
    ]) {
      const res = await app.request(path);
      expect(res.status, path).toBe(404);
      const body = await res.json();
      expect(body).toMatchObject({ error: 'not_found', error_info: { id: 'not_found' } });
    }
  });

  it('answers 503 with a page saying how to build the console when dist is missing', async () => {
    const app = consoleRoutes({ distDir: empty });
    for (const path of ['/console', '/console/assets/index-abc123.js']) {
      const res = await app.request(path);
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toContain('text/html');
      const text = await res.text();
      expect(text).toContain('has not been built');
      expect(text).toContain('make console');
      expect(text).not.toContain('sys_exception');
    }
  });
});
