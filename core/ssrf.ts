import { createWriteStream } from 'node:fs';
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIPv6, type LookupFunction } from 'node:net';
import { ApiError } from './errors.js';

/** Resolves a host name to IP address strings (dns.lookup by default; tests inject their own). */
export type Resolver = (host: string) => Promise<string[]>;

export interface SsrfOptions {
  /** Lab/test mode (FOLIO_ALLOW_PRIVATE_URLS): loopback and private addresses pass. @default false */
  allowPrivate?: boolean;
  /** @default dns.lookup with all addresses */
  resolve?: Resolver;
  /** Allowed schemes, with or without the colon. @default ['https:'] */
  schemes?: string[];
}

export interface CheckedUrl {
  url: URL;
  /** Every address the host resolved to, all checked; connections are pinned to these. */
  addresses: string[];
}

// Special-purpose IPv4 ranges (RFC 6890 and successors): nothing a user-supplied URL may reach.
const V4_BLOCKED: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
// IPv6 is an allow-list (global unicast 2000::/3) minus these; mapped/NAT64/6to4 forms are judged by their IPv4.
const V6_BLOCKED: [string, number][] = [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['3fff::', 20],
];

const bad = (message: string, retryable = false) => new ApiError('bad_request', message, {}, retryable);

/**
 * Parses an IPv4 literal in any spelling inet_aton accepts (`127.1`, `0x7f.0.0.1`, `2130706433`,
 * `0177.0.0.1`) to its 32-bit value, or null when the text is not one.
 */
export function parseIpv4(host: string): number | null {
  const labels = host.replace(/\.$/, '').split('.');
  if (labels.length > 4) return null;
  const nums: number[] = [];
  for (const l of labels) {
    if (/^0x[0-9a-f]*$/i.test(l)) nums.push(l.length === 2 ? 0 : parseInt(l.slice(2), 16));
    else if (/^0[0-7]+$/.test(l)) nums.push(parseInt(l, 8));
    else if (/^(0|[1-9][0-9]*)$/.test(l)) nums.push(Number(l));
    else return null;
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255) || last >= 256 ** (4 - nums.length)) return null;
  return nums.reduce((acc, n, i) => acc + n * 256 ** (3 - i), 0) + last;
}

/** Parses an IPv6 literal (brackets, zone id and a dotted IPv4 tail allowed) to 128 bits, or null. */
export function parseIpv6(host: string): bigint | null {
  let s = host.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (!isIPv6(s)) return null;
  const tail = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (tail) {
    const v4 = parseIpv4(tail[2]!)!;
    s = `${tail[1]}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head, rest] = s.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = rest ? rest.split(':') : [];
  const groups = rest === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

const inPrefix = (addr: bigint, net: bigint, len: number, width: bigint) => addr >> (width - BigInt(len)) === net >> (width - BigInt(len));

function v4Blocked(v4: number): string | null {
  for (const [net, len] of V4_BLOCKED) if (inPrefix(BigInt(v4), BigInt(parseIpv4(net)!), len, 32n)) return `${net}/${len}`;
  return null;
}

/**
 * Why an IP address must not be reached (loopback, private, link-local, CGNAT, multicast,
 * reserved…) as a range like `127.0.0.0/8`, or null for a public unicast address. Non-IP text is blocked.
 */
export function blockedReason(address: string): string | null {
  const v4 = parseIpv4(address);
  if (v4 !== null) return v4Blocked(v4);
  const v6 = parseIpv6(address);
  if (v6 === null) return 'not an IP address';
  const low32 = Number(v6 & 0xffffffffn);
  if (inPrefix(v6, 0xffffn << 32n, 96, 128n)) return v4Blocked(low32) && `::ffff:${v4Blocked(low32)}`;
  if (inPrefix(v6, parseIpv6('64:ff9b::')!, 96, 128n)) return v4Blocked(low32) && `64:ff9b::${v4Blocked(low32)}`;
  if (inPrefix(v6, parseIpv6('2002::')!, 16, 128n)) {
    const embedded = v4Blocked(Number((v6 >> 80n) & 0xffffffffn));
    return embedded && `2002::/16 (${embedded})`;
  }
  if (!inPrefix(v6, parseIpv6('2000::')!, 3, 128n)) return 'outside 2000::/3 (loopback, unspecified, ULA, link-local, multicast…)';
  for (const [net, len] of V6_BLOCKED) if (inPrefix(v6, parseIpv6(net)!, len, 128n)) return `${net}/${len}`;
  return null;
}

/** The canonical address of an IP-literal host, null for a name; numeric-looking non-addresses throw. */
function literalAddress(host: string): string | null {
  const v4 = parseIpv4(host);
  if (v4 !== null) return [24, 16, 8, 0].map((s) => (v4 >>> s) & 255).join('.');
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (isIPv6(bare.replace(/%.*$/, ''))) return bare.replace(/%.*$/, '');
  // WHATWG treats a host whose last label is numeric as IPv4; one that fails to parse is not a name either.
  if (/(^|\.)(\d+|0x[0-9a-f]*)\.?$/i.test(host)) throw bad(`${host} is not a valid address`);
  return null;
}

const defaultResolve: Resolver = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Checks a user-supplied URL before Folio connects to it: parsable, an allowed scheme, and a host
 * that neither is nor resolves to a loopback, private, link-local or otherwise internal address.
 * Throws ApiError('bad_request'); an unresolvable host is marked retryable (DNS may recover).
 */
export async function checkUrl(raw: string, opts: SsrfOptions = {}): Promise<CheckedUrl> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw bad('URL is not valid');
  }
  const schemes = (opts.schemes ?? ['https:']).map((s) => (s.endsWith(':') ? s : `${s}:`).toLowerCase());
  if (!schemes.includes(url.protocol)) throw bad(`URL scheme ${url.protocol} is not allowed (${schemes.join(', ')})`);
  const host = url.hostname;
  if (!host) throw bad('URL has no host');
  const literal = literalAddress(host);
  let addresses: string[];
  if (literal) addresses = [literal];
  else {
    // RFC 6761: these names are loopback by definition, whatever a resolver says.
    if (!opts.allowPrivate && /(^|\.)localhost\.?$/i.test(host)) throw bad(`${host} is a local address`);
    try {
      addresses = await (opts.resolve ?? defaultResolve)(host);
    } catch {
      throw bad(`${host} could not be resolved`, true);
    }
    if (!addresses.length) throw bad(`${host} could not be resolved`, true);
    addresses = addresses.map((a) => {
      const canonical = literalAddress(a);
      if (!canonical) throw bad(`${host} resolved to something that is not an address`);
      return canonical;
    });
  }
  if (!opts.allowPrivate) {
    for (const a of addresses) {
      const reason = blockedReason(a);
      if (reason) throw bad(literal ? `${host} is a private or reserved address (${reason})` : `${host} resolves to a private or reserved address (${reason})`);
    }
  }
  return { url, addresses };
}

export interface GuardedFetchOptions extends SsrfOptions {
  /** Whole request: resolution, connection, answer and body. @default 10_000 */
  timeoutMs?: number;
  /** Extra trusted CA certificates for https (private PKI, tests). */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Larger answers are abandoned. @default 10 MiB */
  maxBodyBytes?: number;
  /**
   * Streams a 2xx answer's body to this file instead of holding it in memory (the returned
   * Response then has no body); maxBodyBytes still applies, counted as the bytes arrive.
   */
  saveTo?: string;
}

export interface GuardedRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
}

/** Why a guarded request produced no answer; `status` is set when a too-large answer had one. */
export class GuardedFetchError extends Error {
  constructor(
    readonly kind: 'timeout' | 'network' | 'too_large' | 'aborted',
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'GuardedFetchError';
  }
}

/**
 * fetch for user-supplied URLs. The URL passes checkUrl, then the connection is pinned to the
 * checked addresses through a custom `lookup`, so a second DNS answer (rebinding) is never used.
 * Redirects are never followed: a 3xx comes back as is. Throws ApiError (refused URL) or GuardedFetchError.
 */
export async function guardedFetch(raw: string, init: GuardedRequestInit = {}, opts: GuardedFetchOptions = {}): Promise<Response> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxBody = opts.maxBodyBytes ?? 10 * 1024 * 1024;
  let timer: NodeJS.Timeout | undefined;
  let req: http.ClientRequest | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new GuardedFetchError('timeout', `no complete answer within ${timeoutMs} ms`)), timeoutMs);
  });
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new GuardedFetchError('aborted', 'request aborted'));
    if (init.signal?.aborted) onAbort();
    init.signal?.addEventListener('abort', onAbort, { once: true });
  });
  // Both only ever lose a race or end it; never let them surface as unhandled rejections.
  deadline.catch(() => undefined);
  aborted.catch(() => undefined);
  try {
    const { url, addresses } = await Promise.race([checkUrl(raw, opts), deadline, aborted]);
    const pinned = addresses.map((address) => ({ address, family: isIPv6(address) ? 6 : 4 }));
    const lookup = ((_host: string, o: { all?: boolean }, cb: (...a: unknown[]) => void) => {
      // Belt and braces: the pinned list was checked, but never hand a blocked address to connect().
      if (!opts.allowPrivate && pinned.some((p) => blockedReason(p.address))) return cb(new Error('blocked address'));
      if (o?.all) cb(null, pinned);
      else cb(null, pinned[0]!.address, pinned[0]!.family);
    }) as unknown as LookupFunction;
    const exchange = new Promise<Response>((resolve, reject) => {
      const mod = url.protocol === 'https:' ? https : http;
      req = mod.request({
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        auth: url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
        method: init.method ?? 'GET',
        headers: init.headers,
        lookup,
        agent: false, // no pooled sockets: each request is pinned to its own checked addresses
        ...(url.protocol === 'https:' && opts.ca ? { ca: opts.ca } : {}),
      });
      req.on('error', (err) => reject(new GuardedFetchError('network', err.message)));
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const status = res.statusCode ?? 0;
        const file = opts.saveTo && status >= 200 && status <= 299 ? createWriteStream(opts.saveTo) : undefined;
        file?.on('error', (err) => (reject(new GuardedFetchError('network', `could not write the answer: ${err.message}`)), res.destroy()));
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > maxBody) {
            reject(new GuardedFetchError('too_large', `answer larger than ${maxBody} bytes`, status));
            res.destroy();
          } else if (file) {
            if (file.write(c)) return;
            res.pause();
            file.once('drain', () => res.resume());
          } else chunks.push(c);
        });
        res.on('error', (err) => reject(new GuardedFetchError('network', err.message)));
        res.on('end', async () => {
          if (file) await new Promise<void>((r) => file.end(r));
          if (status < 200 || status > 599) return reject(new GuardedFetchError('network', `invalid HTTP status ${status}`));
          const headers = new Headers();
          for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
            try {
              headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
            } catch {
              // a header fetch's Headers refuses is dropped, not fatal
            }
          }
          const body = file || [204, 205, 304].includes(status) ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, headers }));
        });
      });
      req.end(init.body);
    });
    return await Promise.race([exchange, deadline, aborted]);
  } finally {
    clearTimeout(timer);
    init.signal?.removeEventListener('abort', onAbort);
    (req as http.ClientRequest | undefined)?.destroy();
  }
}
