import { readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { selfSignedCert } from './self-signed.js';

export interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A local HTTPS webhook receiver with a self-signed certificate made by Debian's openssl. The
 * appliance under test trusts it through NODE_EXTRA_CA_CERTS=certFile.
 */
export async function startHttpsReceiver(status = 200): Promise<{ url: string; certFile: string; received: Received[]; close(): Promise<void> }> {
  const { dir, certFile, keyFile } = selfSignedCert('folio-tls-', 'localhost', 'DNS:localhost,IP:127.0.0.1');
  const received: Received[] = [];
  const server: Server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  return {
    url: `https://localhost:${port}/hook`,
    certFile,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
        rmSync(dir, { recursive: true, force: true });
      }),
  };
}
