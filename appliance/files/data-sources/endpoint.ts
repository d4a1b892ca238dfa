import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIPv6, type LookupFunction } from 'node:net';
import { ApiError } from '../../../core/errors.js';
import { blockedReason, checkUrl, parseIpv4, parseIpv6, type Resolver } from '../../../core/ssrf.js';

export interface EndpointPolicy {
  /** Lab mode (FOLIO_ALLOW_PRIVATE_URLS): names that resolve to loopback or private addresses pass. @default false */
  allowPrivate?: boolean;
  /** @default dns.lookup with every address */
  resolve?: Resolver;
}

// Special-use and private-use suffixes (RFC 6761, 6762, 8375; ICANN's .internal): never public.
const INTERNAL_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa', 'test', 'invalid', 'lan', 'intranet'];

const refuse = (message: string) => new ApiError('bad_request', message, { field: 'endpoint' });

/**
 * Checks a data source's custom endpoint (spec 4.11): an http or https URL whose host is a public
 * domain name, with no credentials, path or query. IP hosts are refused in every mode; single-label
 * and special-use names, and names that resolve to private or internal addresses, are refused
 * unless lab mode allows private addresses. Returns the origin to store. Throws 400 bad_request.
 */
export async function checkEndpoint(raw: unknown, policy: EndpointPolicy = {}): Promise<string> {
  if (typeof raw !== 'string' || !raw.trim()) throw refuse('endpoint must be a non-empty string');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('endpoint is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse(`endpoint scheme ${url.protocol} is not allowed (http:, https:)`);
  if (url.username || url.password) throw refuse('endpoint must not carry credentials');
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) throw refuse('endpoint must be a bare origin, without path or query');
  const host = url.hostname.replace(/\.$/, '');
  if (host.startsWith('[') || parseIpv6(host) !== null || parseIpv4(host) !== null || /(^|\.)(\d+|0x[0-9a-f]*)$/i.test(host)) {
    throw refuse('endpoint host must be a domain name, not an IP address');
  }
  if (!policy.allowPrivate) {
    if (!host.includes('.')) throw refuse(`endpoint host ${host} is not a public domain name`);
    const lower = host.toLowerCase();
    const suffix = INTERNAL_SUFFIXES.find((s) => lower === s || lower.endsWith(`.${s}`));
    if (suffix) throw refuse(`endpoint host ${host} is under the internal suffix .${suffix}`);
  }
  try {
    await checkUrl(url.href, { schemes: ['http:', 'https:'], allowPrivate: policy.allowPrivate, resolve: policy.resolve });
  } catch (err) {
    throw err instanceof ApiError ? refuse(`endpoint refused: ${err.message}`) : err;
  }
  return url.origin;
}

const defaultResolve: Resolver = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * A socket `lookup` that resolves the name afresh and refuses it when any address is private or
 * internal: the endpoint is re-checked at every connection, on the very addresses the socket uses,
 * so a name that later rebinds to an internal address gets no connection.
 */
export function guardedLookup(policy: EndpointPolicy = {}): LookupFunction {
  const resolve = policy.resolve ?? defaultResolve;
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    resolve(hostname).then(
      (addresses) => {
        if (!addresses.length) return callback(Object.assign(new Error(`${hostname} did not resolve`), { code: 'ENOTFOUND' }));
        const blocked = policy.allowPrivate ? null : addresses.map(blockedReason).find((r) => r);
        if (blocked) return callback(Object.assign(new Error(`${hostname} resolves to a private or reserved address (${blocked})`), { code: 'EHOSTUNREACH' }));
        const entries = addresses.map((address) => ({ address, family: isIPv6(address) ? 6 : 4 }));
        if (options?.all) callback(null, entries);
        else callback(null, entries[0]!.address, entries[0]!.family);
      },
      (err: Error) => callback(Object.assign(err, { code: (err as { code?: string }).code ?? 'ENOTFOUND' })),
    );
  }) as unknown as LookupFunction;
}

/** Keep-alive agents whose every new socket goes through guardedLookup. */
export function guardedAgents(policy: EndpointPolicy = {}): { httpAgent: http.Agent; httpsAgent: https.Agent } {
  const lookup = guardedLookup(policy);
  return { httpAgent: new http.Agent({ keepAlive: true, lookup }), httpsAgent: new https.Agent({ keepAlive: true, lookup }) };
}
