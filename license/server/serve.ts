import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Server } from 'node:http';

export interface RunningVendorServer {
  url: string;
  port: number;
  /** Stops listening and drops open connections at once, so clients see the server gone. */
  close(): Promise<void>;
}

/** Serves the vendor app on host:port (port 0: any free port). */
export async function startVendorServer(app: Hono, opts: { port?: number; host?: string } = {}): Promise<RunningVendorServer> {
  const host = opts.host ?? '127.0.0.1';
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: opts.port ?? 0, hostname: host }, () => resolve(s as Server));
    (s as Server).once('error', reject);
  });
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
