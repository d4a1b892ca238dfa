import { readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { selfSignedCert } from '../support/self-signed.js';

/** The address tests treat as "a public host": connections to it are carried to local servers (FOLIO_TEST_NAT). */
export const PUBLIC_IP = '93.184.216.34';

/** Ports the victim listens on besides its own: the defaults of http and https URLs (Azure blob hosts use 443). */
const DEFAULT_PORTS = [80, 443];

export interface Victim {
  /** A port of its own, put in every URL that names one. */
  port: number;
  /** Every connection accepted, as "<local address>:<local port>". */
  connections: string[];
  close(): Promise<void>;
}

/**
 * The loopback listener SSRF must never reach: dual-stack on every local address (127.0.0.1,
 * ::1, and this machine's own addresses) on a port of its own and on 80 and 443. It counts
 * connections and answers nothing.
 */
export async function startVictim(): Promise<Victim> {
  const connections: string[] = [];
  const servers: Server[] = [];
  const listen = (port: number) =>
    new Promise<Server>((resolve, reject) => {
      const s = createTcpServer((sock) => {
        connections.push(`${sock.localAddress}:${sock.localPort}`);
        sock.destroy();
      });
      s.once('error', reject);
      s.listen({ port, host: '::', ipv6Only: false }, () => resolve(s));
    });
  const own = await listen(0);
  servers.push(own);
  for (const p of DEFAULT_PORTS) servers.push(await listen(p));
  return {
    port: (own.address() as AddressInfo).port,
    connections,
    close: () => Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r())))).then(() => undefined),
  };
}

export interface PublicHost {
  /** FOLIO_TEST_NAT: PUBLIC_IP:80 and PUBLIC_IP:443 carried to the two local servers. */
  nat: Record<string, string>;
  /** NODE_EXTRA_CA_CERTS for the https server (a certificate for *.ssrf.test). */
  certFile: string;
  /** Requests it received, as "<METHOD> <path>". */
  requests: string[];
  close(): Promise<void>;
}

/**
 * "A host on the Internet" that Folio may reach: over http and https it serves `GET /image.png`
 * and `GET /doc.pdf`, and answers any path under /to/ with a 302 to the rest of the path
 * (`/to/http://127.0.0.1:9/x` redirects to http://127.0.0.1:9/x).
 */
export async function startPublicHost(files: { png: Buffer; pdf: Buffer }): Promise<PublicHost> {
  const { dir, certFile, keyFile } = selfSignedCert('folio-ssrf-tls-', 'ssrf.test', 'DNS:*.ssrf.test');
  const requests: string[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    const url = req.url ?? '/';
    if (url.startsWith('/to/')) return void res.writeHead(302, { location: decodeURIComponent(url.slice(4)) }).end();
    if (url === '/image.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(files.png);
    if (url === '/doc.pdf') return void res.writeHead(200, { 'content-type': 'application/pdf' }).end(files.pdf);
    if (req.method === 'POST') return void res.writeHead(200).end();
    res.writeHead(404).end();
  };
  const http = createHttpServer(handle);
  const https = createHttpsServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, handle);
  await Promise.all([http, https].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()))));
  const portOf = (s: { address(): unknown }) => (s.address() as AddressInfo).port;
  return {
    nat: { [`${PUBLIC_IP}:80`]: `127.0.0.1:${portOf(http)}`, [`${PUBLIC_IP}:443`]: `127.0.0.1:${portOf(https)}` },
    certFile,
    requests,
    async close() {
      http.closeAllConnections();
      https.closeAllConnections();
      await Promise.all([http, https].map((s) => new Promise<void>((r) => s.close(() => r()))));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** DNS answers pointing inside: each name in the table resolves to the address after it. */
export const INTERNAL_ANSWERS: Record<string, string> = {
  'loopback.ssrf.test': '127.0.0.1',
  'loopback-high.ssrf.test': '127.53.0.1',
  'metadata.ssrf.test': '169.254.169.254',
  'ten.ssrf.test': '10.1.2.3',
  'one-seven-two.ssrf.test': '172.20.0.1',
  'one-nine-two.ssrf.test': '192.168.0.1',
  'cgnat.ssrf.test': '100.64.0.1',
  'unspecified.ssrf.test': '0.0.0.0',
  'v6-loopback.ssrf.test': '::1',
  'v6-unspecified.ssrf.test': '::',
  'v6-ula.ssrf.test': 'fc00::1',
  'v6-aws-metadata.ssrf.test': 'fd00:ec2::254',
  'v6-link-local.ssrf.test': 'fe80::1',
  'v6-mapped-loopback.ssrf.test': '::ffff:127.0.0.1',
  'v6-mapped-metadata.ssrf.test': '::ffff:169.254.169.254',
  'nat64-loopback.ssrf.test': '64:ff9b::7f00:1',
  'six-to-four-private.ssrf.test': '2002:c0a8:1::1',
};

/** Hosts that are internal addresses by their spelling alone (no DNS is asked). */
export const INTERNAL_LITERALS = [
  '127.0.0.1',
  '127.1',
  '0x7f.0.0.1',
  '0177.0.0.1',
  '0x7f.1',
  '2130706433',
  '0x7f000001',
  '017700000001',
  '[::1]',
  '[0:0:0:0:0:0:0:1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[::127.0.0.1]',
  '169.254.169.254',
  '0xa9.0xfe.0xa9.0xfe',
  '2852039166',
  '10.0.0.1',
  '192.168.1.1',
  '0.0.0.0',
  '0',
  'localhost',
  'LOCALHOST.',
  'api.localhost',
];
