import { Hono, type Context } from 'hono';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { envelope } from '../../core/errors.js';

/** Where `vite build --config console/web/vite.config.ts` writes the operator console. */
export const CONSOLE_DIST_DIR = fileURLToPath(new URL('../../console/web/dist/', import.meta.url));

export interface ConsoleRoutesOptions {
  /** Folder holding the built console (index.html, assets/). @default CONSOLE_DIST_DIR */
  distDir?: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

// The console talks to its own origin only: the policy makes "nothing from a CDN" a browser rule,
// not just a habit. MathJax and uPlot set inline styles, hence 'unsafe-inline' for styles only.
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** File names under assets/ carry a content hash, so browsers may keep them for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Folio console not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; color: #1f2933; line-height: 1.5">
<h1>The operator console has not been built</h1>
<p>This appliance serves the console from <code>console/web/dist/</code>, which is missing.
Build it with <code>make console</code> (part of <code>make run</code> and <code>make test</code>) or
<code>npx vite build --config console/web/vite.config.ts</code>, then reload this page.</p>
<p>The API is unaffected: <a href="/health">/health</a>, <a href="/pco/v1/status">/pco/v1/status</a>.</p>
</body></html>
`;

/**
 * GET /console: the operator console as static files (index.html for /console and /console/,
 * hashed assets under /console/assets/). No credentials, like the other private-cloud routes.
 */
export function consoleRoutes(opts: ConsoleRoutesOptions = {}): Hono {
  const dist = opts.distDir ?? CONSOLE_DIST_DIR;
  const app = new Hono();

  const serve = async (c: Context, rel: string) => {
    const index = await readOrNull(join(dist, 'index.html'));
    if (index === null) return c.html(NOT_BUILT_PAGE, 503, { 'cache-control': 'no-store', 'retry-after': '30' });
    if (rel === 'index.html') return c.body(index, 200, { ...SECURITY_HEADERS, 'content-type': CONTENT_TYPES['.html']!, 'cache-control': 'no-cache' });
    const body = await readOrNull(join(dist, rel));
    if (body === null) return c.json(envelope('not_found', `No console file ${c.req.path}`), 404);
    return c.body(body, 200, {
      ...SECURITY_HEADERS,
      'content-type': CONTENT_TYPES[extname(rel)] ?? 'application/octet-stream',
      'cache-control': rel.startsWith('assets/') ? IMMUTABLE : 'no-cache',
    });
  };

  app.get('/console', (c) => serve(c, 'index.html'));
  app.get('/console/', (c) => serve(c, 'index.html'));
  app.get('/console/*', (c) => {
    const rel = safeRelative(c.req.path.slice('/console/'.length));
    if (rel === null) return c.json(envelope('not_found', `No console file ${c.req.path}`), 404);
    return serve(c, rel);
  });
  return app;
}

/** A path inside dist, or null for anything that could step outside it (.., NUL, bad escapes). */
function safeRelative(raw: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const norm = posix.normalize(decoded);
  if (norm.startsWith('/') || norm === '..' || norm.startsWith('../') || norm.split('/').includes('..')) return null;
  return norm === '.' || norm === '' ? 'index.html' : norm;
}

async function readOrNull(path: string): Promise<Uint8Array<ArrayBuffer> | null> {
  try {
    if (!(await stat(path)).isFile()) return null;
    // readFile's Buffer owns a plain ArrayBuffer (never a SharedArrayBuffer).
    return (await readFile(path)) as Uint8Array<ArrayBuffer>;
  } catch {
    return null;
  }
}
