import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sign, verify } from './signing.js';

// The scheme of spec 6.2 written out independently, as a receiver would implement it.
const referenceHex = (secret: string, t: number, body: string) => createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');
function receiverAccepts(header: string, body: string, secret: string, nowSec: number): boolean {
  const parts = header.split(',').map((p) => p.split('=') as [string, string]);
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (Math.abs(nowSec - t) > 300) return false;
  return parts.some(([k, v]) => k === 'v1' && v === referenceHex(secret, t, body));
}

const body = JSON.stringify({ event: 'file.completed', file_id: 'f-1', status: 'completed', num_pages: 2, num_pages_completed: 2, note: 'é ∑ 😀' });
const oldSecret = 'whsec_' + 'a'.repeat(64);
const newSecret = 'whsec_' + 'b'.repeat(64);
const t = 1_760_000_000;
const nowMs = t * 1000;

describe('sign', () => {
  it('produces t=<unix>,v1=<hex> matching an independent HMAC-SHA256 over "<t>.<body>"', () => {
    const header = sign([newSecret], body, t);
    expect(header).toBe(`t=${t},v1=${referenceHex(newSecret, t, body)}`);
    expect(receiverAccepts(header, body, newSecret, t)).toBe(true);
  });

  it('carries one v1 per secret during a rotation grace period, each verifiable on its own', () => {
    const header = sign([newSecret, oldSecret], body, t);
    expect(header.split(',')).toHaveLength(3);
    expect(receiverAccepts(header, body, newSecret, t)).toBe(true);
    expect(receiverAccepts(header, body, oldSecret, t)).toBe(true);
    expect(receiverAccepts(header, body, 'whsec_other', t)).toBe(false);
  });

  it('signs raw bytes the same as the equal string', () => {
    expect(sign([newSecret], Buffer.from(body), t)).toBe(sign([newSecret], body, t));
  });

  it('refuses to sign without a secret or with a bad timestamp', () => {
    expect(() => sign([], body, t)).toThrow();
    expect(() => sign([newSecret], body, 1.5)).toThrow();
  });
});

describe('verify', () => {
  const header = `t=${t},v1=${referenceHex(newSecret, t, body)}`;

  it('accepts a header built by the reference implementation', () => {
    expect(verify(header, body, [newSecret], nowMs)).toBe(true);
    expect(verify(header, Buffer.from(body), [newSecret], nowMs)).toBe(true);
  });

  it('accepts when either of two v1 values matches, with either secret known', () => {
    const dual = `t=${t},v1=${referenceHex(oldSecret, t, body)},v1=${referenceHex(newSecret, t, body)}`;
    expect(verify(dual, body, [newSecret], nowMs)).toBe(true);
    expect(verify(dual, body, [oldSecret], nowMs)).toBe(true);
    expect(verify(dual, body, ['whsec_x', oldSecret], nowMs)).toBe(true);
    expect(verify(dual, body, ['whsec_x'], nowMs)).toBe(false);
  });

  it('rejects a changed body, a wrong secret and a changed timestamp', () => {
    expect(verify(header, body + ' ', [newSecret], nowMs)).toBe(false);
    expect(verify(header, body, [oldSecret], nowMs)).toBe(false);
    expect(verify(header.replace(`t=${t}`, `t=${t + 1}`), body, [newSecret], nowMs)).toBe(false);
  });

  it('accepts up to five minutes of skew either way and no more', () => {
    expect(verify(header, body, [newSecret], nowMs + 300_000)).toBe(true);
    expect(verify(header, body, [newSecret], nowMs - 300_000)).toBe(true);
    expect(verify(header, body, [newSecret], nowMs + 301_000)).toBe(false);
    expect(verify(header, body, [newSecret], nowMs - 301_000)).toBe(false);
    expect(verify(header, body, [newSecret], nowMs + 3_600_000, 7200)).toBe(true);
  });

  it('rejects malformed headers', () => {
    for (const h of [
      undefined,
      null,
      '',
      'garbage',
      `t=${t}`,
      `v1=${referenceHex(newSecret, t, body)}`,
      `t=abc,v1=${referenceHex(newSecret, t, body)}`,
      `t=${t},t=${t},v1=${referenceHex(newSecret, t, body)}`,
      `t=${t},v1=${referenceHex(newSecret, t, body).toUpperCase()}`,
    ]) {
      expect(verify(h, body, [newSecret], nowMs), String(h)).toBe(false);
    }
  });

  it('round-trips with sign', () => {
    expect(verify(sign([newSecret, oldSecret], body, t), body, [oldSecret], nowMs + 10_000)).toBe(true);
  });
});
