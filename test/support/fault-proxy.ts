import { randomUUID } from 'node:crypto';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * What the proxy does to the requests a fault catches:
 * - `slowdown`: answers 503 with S3's SlowDown error document, as a throttled bucket does;
 * - `reset`: drops the connection with a TCP reset before any answer;
 * - `stall`: holds the request without answering for `stallMs`, then drops the connection, as a
 *   load balancer that gave up on a hung backend does.
 */
export type FaultKind = 'slowdown' | 'reset' | 'stall';

export interface Fault {
  kind: FaultKind;
  /** The fault catches the next `requests` requests… */
  requests?: number;
  /** …or every request for the next `windowMs` milliseconds. */
  windowMs?: number;
  /** `stall` only: how long a caught request hangs before its connection drops. @default 5_000 */
  stallMs?: number;
}

export interface FaultProxy {
  /** http://127.0.0.1:<port>: use it as the S3 endpoint in place of the upstream's. */
  url: string;
  /** Requests passed to the upstream, and requests each fault kind caught. */
  counts: Record<'forwarded' | FaultKind, number>;
  /** Starts a fault now, replacing any fault still active. */
  inject(fault: Fault): void;
  /** True while the current fault still catches requests. */
  active(): boolean;
  stop(): Promise<void>;
}

const SLOW_DOWN_XML = (requestId: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message><RequestId>${requestId}</RequestId></Error>`;

/**
 * A fault-injecting HTTP proxy in front of a real server (s3rver). Requests are forwarded byte
 * for byte, the Host header included, so SigV4 signatures made for the proxy's address still
 * verify upstream. Between faults it is a plain pass-through.
 */
export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream);
  const counts: FaultProxy['counts'] = { forwarded: 0, slowdown: 0, reset: 0, stall: 0 };
  let fault: (Fault & { left: number; until: number }) | undefined;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const catches = (): FaultKind | undefined => {
    if (!fault) return undefined;
    if (fault.requests !== undefined && fault.left > 0) {
      fault.left--;
      return fault.kind;
    }
    if (fault.windowMs !== undefined && Date.now() < fault.until) return fault.kind;
    return undefined;
  };

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    counts.forwarded++;
    const up = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    });
    up.on('error', () => req.socket.destroy());
    req.pipe(up);
  };

  const server = createServer((req, res) => {
    const kind = catches();
    if (!kind) return forward(req, res);
    counts[kind]++;
    if (kind === 'reset') return void req.socket.resetAndDestroy();
    if (kind === 'stall') {
      const t = setTimeout(() => {
        timers.delete(t);
        req.socket.resetAndDestroy();
      }, fault?.stallMs ?? 5_000);
      timers.add(t);
      return;
    }
    // Read the body first: answering mid-upload makes some clients see a reset instead of the 503.
    req.resume();
    req.on('end', () => {
      const body = SLOW_DOWN_XML(randomUUID());
      res.writeHead(503, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body), 'x-amz-request-id': randomUUID() });
      res.end(body);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    inject(f) {
      fault = { ...f, left: f.requests ?? 0, until: Date.now() + (f.windowMs ?? 0) };
    },
    active() {
      if (!fault) return false;
      return (fault.requests !== undefined && fault.left > 0) || (fault.windowMs !== undefined && Date.now() < fault.until);
    },
    async stop() {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
