import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { waitFor } from './ports.js';

/** A Files API client of one appliance with one app key (made through the operator routes) in `group`. */
export async function filesClient(base: string, group = 'default') {
  const call = async (method: string, path: string, init: { headers?: Record<string, string>; json?: unknown; form?: FormData } = {}) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
      body: init.form ?? (init.json !== undefined ? JSON.stringify(init.json) : undefined),
    });
    const buf = Buffer.from(await res.arrayBuffer());
    let body: any = null;
    try {
      body = JSON.parse(buf.toString('utf8'));
    } catch {
      // a download
    }
    return { status: res.status, headers: res.headers, body, text: buf.toString('utf8'), bytes: buf };
  };
  const app = await call('POST', '/pco/v1/apps', { json: { name: `files-${Date.now()}-${Math.random()}`, group_id: group } });
  const key = await call('POST', `/pco/v1/apps/${app.body.app_id}/keys`);
  expect(key.status, key.text).toBe(201);
  const auth = { app_key: key.body.app_key as string };
  const api = (method: string, path: string, init: { headers?: Record<string, string>; json?: unknown; form?: FormData } = {}) =>
    call(method, path, { ...init, headers: { ...auth, ...init.headers } });
  const settled = (fileId: string, timeoutMs = 60_000) =>
    waitFor(
      async () => {
        const s = await api('GET', `/files/v1/${fileId}`);
        return ['completed', 'error'].includes(s.body.status) && s.body;
      },
      timeoutMs,
      250,
    );
  return { api, appId: app.body.app_id as string, settled };
}

/**
 * A loopback HTTP server holding documents by path (lab mode lets the appliance fetch it); any
 * other path answers 404, and /status/<code>/... answers that status.
 */
export async function documentServer(docs: Record<string, Buffer>): Promise<{ url: (path: string) => string; close(): void }> {
  const server: Server = createServer((req, res) => {
    const doc = docs[req.url ?? ''];
    const status = /^\/status\/(\d{3})\//.exec(req.url ?? '')?.[1];
    if (doc) res.end(doc);
    else res.writeHead(status ? Number(status) : 404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { url: (path) => `http://127.0.0.1:${port}${path}`, close: () => server.close() };
}
