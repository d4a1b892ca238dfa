import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import { blockedReason, checkUrl, parseIpv4, parseIpv6, type Resolver } from './ssrf.js';

// A resolver that must not be consulted: IP literals never go to DNS.
const noDns: Resolver = async (host) => {
  throw new Error(`unexpected lookup of ${host}`);
};
const fixed =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses;

async function refusal(url: string, opts: Parameters<typeof checkUrl>[1] = {}): Promise<ApiError> {
  const err = await checkUrl(url, { resolve: noDns, ...opts }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, url).toBeInstanceOf(ApiError);
  expect((err as ApiError).id).toBe('bad_request');
  return err as ApiError;
}

describe('checkUrl', () => {
  const literals = [
    // loopback in every IPv4 spelling (WHATWG URL normalises some, the parser the rest)
    'https://127.0.0.1/',
    'https://127.1/',
    'https://0x7f.0.0.1/',
    'https://2130706433/',
    'https://0177.0.0.1/',
    'https://0x7f000001/',
    'https://127.0.0.1./',
    'https://127.255.255.254:8443/x',
    // private, link-local (metadata), CGNAT, this-network, multicast, broadcast, reserved
    'https://10.0.0.1/',
    'https://172.16.0.1/',
    'https://172.31.255.255/',
    'https://192.168.1.1/',
    'https://169.254.169.254/latest/meta-data/',
    'https://169.254.0.1/',
    'https://100.64.0.1/',
    'https://100.127.255.255/',
    'https://0.0.0.0/',
    'https://0/',
    'https://0.1.2.3/',
    'https://224.0.0.1/',
    'https://239.255.255.250/',
    'https://255.255.255.255/',
    'https://240.0.0.1/',
    'https://198.18.0.1/',
    // IPv6 loopback, unspecified, ULA, link-local, multicast
    'https://[::1]/',
    'https://[::]/',
    'https://[fc00::1]/',
    'https://[fd12:3456::1]/',
    'https://[fe80::1]/',
    'https://[ff02::1]/',
    'https://[0:0:0:0:0:0:0:1]/',
    // IPv4-mapped and -compatible spellings, NAT64 and 6to4 wrapping internal IPv4
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:7f00:1]/',
    'https://[0:0:0:0:0:ffff:127.0.0.1]/',
    'https://[::ffff:a9fe:a9fe]/',
    'https://[::ffff:10.0.0.1]/',
    'https://[::127.0.0.1]/',
    'https://[64:ff9b::7f00:1]/',
    'https://[2002:7f00:1::]/',
  ];
  it.each(literals)('refuses %s without asking DNS', async (url) => {
    await refusal(url);
  });

  it('refuses IPv4 odd spellings even where the URL parser keeps them raw (non-special scheme)', async () => {
    for (const host of ['127.1', '0x7f.0.0.1', '2130706433', '0177.0.0.1', '0x7F.1', '017700000001']) {
      await refusal(`folio://${host}/x`, { schemes: ['folio'] });
    }
  });

  it('refuses numeric-looking hosts that are not addresses instead of resolving them', async () => {
    await refusal('folio://1.2.3.09/', { schemes: ['folio:'] });
    await refusal('folio://999999999999/', { schemes: ['folio:'] });
  });

  it('refuses localhost names without resolving them', async () => {
    await refusal('https://localhost/');
    await refusal('https://LOCALHOST./');
    await refusal('https://api.localhost/');
  });

  it('refuses a host name resolving to the metadata address or any internal address', async () => {
    const err = await refusal('https://hooks.example.com/x', { resolve: fixed('169.254.169.254') });
    expect(err.message).toContain('169.254.0.0/16');
    await refusal('https://hooks.example.com/x', { resolve: fixed('93.184.215.14', '10.1.2.3') });
    await refusal('https://hooks.example.com/x', { resolve: fixed('::ffff:127.0.0.1') });
    await refusal('https://hooks.example.com/x', { resolve: fixed('fe80::1%eth0') });
    await refusal('https://hooks.example.com/x', { resolve: fixed('not-an-ip') });
  });

  it('refuses unparsable URLs and schemes not allowed', async () => {
    await refusal('not a url');
    await refusal('');
    await refusal('http://93.184.215.14/');
    await refusal('ftp://93.184.215.14/');
    await refusal('file:///etc/passwd', { schemes: ['https', 'file'] });
  });

  it('marks an unresolvable host retryable', async () => {
    const err = await refusal('https://nowhere.example/', {
      resolve: async () => {
        throw new Error('ENOTFOUND');
      },
    });
    expect(err.retryable).toBe(true);
    expect((await refusal('https://nowhere.example/', { resolve: fixed() })).retryable).toBe(true);
    expect((await refusal('https://10.0.0.1/')).retryable).toBe(false);
  });

  it('allows public addresses and returns the resolved addresses to pin', async () => {
    const out = await checkUrl('https://hooks.example.com/cb?x=1', { resolve: fixed('93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c') });
    expect(out.url.href).toBe('https://hooks.example.com/cb?x=1');
    expect(out.addresses).toEqual(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']);
    expect((await checkUrl('https://8.8.8.8/', { resolve: noDns })).addresses).toEqual(['8.8.8.8']);
    expect((await checkUrl('https://[2606:4700:4700::1111]/', { resolve: noDns })).addresses).toEqual(['2606:4700:4700::1111']);
    expect((await checkUrl('https://[::ffff:8.8.8.8]/', { resolve: noDns })).addresses).toEqual(['::ffff:808:808']);
    expect((await checkUrl('http://1.1.1.1/', { schemes: ['http:', 'https:'], resolve: noDns })).addresses).toEqual(['1.1.1.1']);
  });

  it('lets loopback and private addresses through in lab mode, schemes still apply', async () => {
    expect((await checkUrl('http://127.0.0.1:9/', { allowPrivate: true, schemes: ['http'] })).addresses).toEqual(['127.0.0.1']);
    expect((await checkUrl('https://localhost/', { allowPrivate: true, resolve: fixed('127.0.0.1') })).addresses).toEqual(['127.0.0.1']);
    await refusal('http://127.0.0.1/', { allowPrivate: true });
  });
});

describe('address parsing', () => {
  it('reads every inet_aton spelling of IPv4', () => {
    const loopback = 0x7f000001;
    for (const s of ['127.0.0.1', '127.1', '127.0.1', '0x7f.0.0.1', '0x7f.1', '2130706433', '0x7f000001', '0177.0.0.1', '017700000001', '127.0.0.1.']) {
      expect(parseIpv4(s), s).toBe(loopback);
    }
    for (const s of ['256.0.0.1', '1.2.3.4.5', '08.0.0.1', 'example.com', '1.2.3.65536', '4294967296', '']) expect(parseIpv4(s), s).toBeNull();
  });

  it('reads IPv6 with compression, brackets, zones and dotted tails', () => {
    expect(parseIpv6('::1')).toBe(1n);
    expect(parseIpv6('[::ffff:127.0.0.1]')).toBe(parseIpv6('::ffff:7f00:1'));
    expect(parseIpv6('fe80::1%eth0')).toBe((0xfe80n << 112n) | 1n);
    expect(parseIpv6('2001:db8::')).toBe(0x20010db8n << 96n);
    expect(parseIpv6('127.0.0.1')).toBeNull();
  });

  it('classifies public and internal addresses', () => {
    expect(blockedReason('93.184.215.14')).toBeNull();
    expect(blockedReason('172.32.0.1')).toBeNull();
    expect(blockedReason('100.128.0.1')).toBeNull();
    expect(blockedReason('2a00:1450:4001::200e')).toBeNull();
    expect(blockedReason('172.20.1.1')).toBe('172.16.0.0/12');
    expect(blockedReason('2001:db8::1')).toBe('2001:db8::/32');
    expect(blockedReason('::ffff:192.168.0.1')).toContain('192.168.0.0/16');
  });
});
